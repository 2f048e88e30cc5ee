function (max, includeHidden, fieldMax) {
  // What a person sees of `this` (an element, or the document's body):
  // its rendered text in document order through open shadow roots, and
  // what form fields show (their live value, cut at `fieldMax`; never a
  // password or a hidden input). Text a person cannot see is left out and
  // counted by reason: display none, visibility hidden, transparent (colour
  // alpha 0 or opacity 0), clipped to nothing, tiny (a box or font of about
  // a pixel or less), offscreen (outside the document's scrollable area).
  // With `includeHidden` it is kept too (and still counted). Reads only.
  // Returns [text, truncated, {reason: count}].
  const doc = this.ownerDocument || document;
  const win = doc.defaultView || window;
  const de = doc.documentElement;
  const sx = win.scrollX, sy = win.scrollY;
  const docW = Math.max(de ? de.scrollWidth : 0, win.innerWidth);
  const docH = Math.max(de ? de.scrollHeight : 0, win.innerHeight);
  const skip = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'HEAD', 'IFRAME', 'OBJECT']);
  const blocks = new Set(['block', 'flex', 'grid', 'list-item', 'table', 'table-row', 'flow-root', 'table-caption']);
  const noValue = new Set(['password', 'hidden', 'file', 'checkbox', 'radio', 'range', 'color', 'image']);
  const limit = max * 2 + 1024;
  const reasons = {};
  const parts = [];
  let len = 0;
  const push = s => { if (s) { parts.push(s); len += s.length; } };
  const note = r => { reasons[r] = (reasons[r] || 0) + 1; };
  const alpha = c => {
    if (c === 'transparent') return 0;
    const m = /^rgba\([^,]+,[^,]+,[^,]+,\s*([\d.e-]+)\)$/.exec(c) || /\/\s*([\d.e-]+)(%?)\s*\)$/.exec(c);
    if (!m) return 1;
    const v = parseFloat(m[1]);
    return m[2] === '%' ? v / 100 : v;
  };
  const field = v => {
    v = String(v ?? '');
    return v.length > fieldMax ? v.slice(0, fieldMax) + ' [… ' + (v.length - fieldMax) + ' more characters]' : v;
  };
  // CSS inset() lengths against the box: whether nothing is left.
  const insetEmpty = (cp, r) => {
    const m = /^inset\(([^)]*?)(?:\s+round[^)]*)?\)/.exec(cp);
    if (!m) return /^(circle|ellipse)\(0(px|%)?[\s)]/.test(cp);
    const v = m[1].trim().split(/\s+/);
    const [t, ri, b, l] = [v[0], v[1] ?? v[0], v[2] ?? v[0], v[3] ?? v[1] ?? v[0]];
    const px = (x, size) => x.endsWith('%') ? parseFloat(x) * size / 100 : parseFloat(x) || 0;
    return px(t, r.height) + px(b, r.height) >= r.height - 0.5 || px(l, r.width) + px(ri, r.width) >= r.width - 0.5;
  };
  // Why an element's whole box is invisible, or null.
  const boxHidden = (el, cs) => {
    if (cs.display === 'none') return 'display_none';
    if (parseFloat(cs.opacity) <= 0.01) return 'transparent';
    if (cs.display === 'contents') return null;
    const r = el.getBoundingClientRect();
    const positioned = cs.position === 'absolute' || cs.position === 'fixed';
    if (positioned && cs.clip && cs.clip.startsWith('rect(')) {
      const n = cs.clip.slice(5, -1).split(/[\s,]+/).map(parseFloat);
      if (n.length === 4 && (n[2] - n[0] <= 1 || n[1] - n[3] <= 1)) return 'clipped';
    }
    if (cs.clipPath && cs.clipPath !== 'none' && insetEmpty(cs.clipPath, r)) return 'clipped';
    const clipsX = cs.overflowX !== 'visible', clipsY = cs.overflowY !== 'visible';
    if ((clipsX && r.width <= 1.5) || (clipsY && r.height <= 1.5)) return 'tiny';
    if (r.width > 0 || r.height > 0) {
      if (r.right + sx <= 0 || r.bottom + sy <= 0 || r.left + sx >= docW || r.top + sy >= docH) return 'offscreen';
    }
    return null;
  };
  // Why text directly inside an element is invisible, or null.
  const inkHidden = cs => {
    if (cs.visibility !== 'visible') return 'visibility_hidden';
    if (parseFloat(cs.fontSize) <= 1) return 'tiny';
    const clipText = (cs.backgroundClip || '').includes('text') || (cs.webkitBackgroundClip || '').includes('text');
    if (!clipText && (alpha(cs.color) === 0 || alpha(cs.webkitTextFillColor || cs.color) === 0)) return 'transparent';
    return null;
  };
  const fieldText = el => {
    const tag = el.tagName;
    if (tag === 'TEXTAREA') return field(el.value);
    if (tag === 'SELECT') return Array.from(el.selectedOptions || []).map(o => o.text).join(', ');
    const type = (el.type || 'text').toLowerCase();
    return noValue.has(type) ? '' : field(el.value);
  };
  const hasText = el => ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)
    ? /\S/.test(fieldText(el)) : /\S/.test(el.textContent || '');
  const kids = node => {
    if (node.shadowRoot) return node.shadowRoot.childNodes;
    if (node.tagName === 'SLOT') {
      const a = node.assignedNodes({ flatten: true });
      return a.length ? a : node.childNodes;
    }
    return node.childNodes;
  };
  const walk = (node, ink) => {
    if (len > limit) return;
    if (node.nodeType === 3) {
      const t = node.data;
      if (!/\S/.test(t) && !t.includes('\n')) { if (t) push(' '); return; }
      if (ink.hidden && /\S/.test(t)) { note(ink.hidden); if (!includeHidden) return; }
      push(ink.pre ? t.replace(/ /g, '\u0000') : t.replace(/[ \t\n\r\f]+/g, ' '));
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    if (node.nodeType === 1) {
      if (skip.has(node.tagName)) return;
      if (node.tagName === 'BR') { push('\n'); return; }
      const cs = win.getComputedStyle(node);
      const why = node === doc.body || node === de ? null : boxHidden(node, cs);
      if (why) {
        if (hasText(node)) note(why);
        if (!includeHidden) return;
      }
      // Block boundaries as markers: a paragraph is set off by a blank
      // line, any other block by a line break (as innerText does).
      const block = blocks.has(cs.display) || why === 'display_none'
        ? (node.tagName === 'P' ? '\u0002' : '\u0001') : '';
      const own = inkHidden(cs);
      const inner = { hidden: own, pre: /^(pre|break-spaces)/.test(cs.whiteSpace) || cs.whiteSpace === 'pre-line' };
      push(block);
      const tag = node.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
        const v = fieldText(node);
        if (v && own) { note(own); if (!includeHidden) return; }
        push(tag === 'TEXTAREA' ? '\n' + v + '\n' : ' ' + v + ' ');
        return;
      }
      for (const k of kids(node)) walk(k, inner);
      if (cs.display === 'table-cell') push('\t');
      push(block);
      return;
    }
    for (const k of node.childNodes) walk(k, ink);
  };
  walk(this, { hidden: null, pre: false });
  const text = parts.join('')
    .replace(/[ \u00a0]*[\u0001\u0002][ \u00a0\u0001\u0002]*/g, m => m.includes('\u0002') ? '\n\n' : '\n')
    .replace(/[ \u00a0]*\n[ \u00a0]*/g, '\n')
    .replace(/ {2,}/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .replace(/\u0000/g, ' ');
  return [text.slice(0, max), text.length > max || len > limit, reasons];
}
