function (limit) {
  // The page's interactive candidates in document (flat-tree) order:
  // through open shadow roots and slots, stopping after `limit`. Chromium's
  // accessibility tree decides role, name and whether a candidate counts.
  const ROLES = new Set(['button','link','textbox','searchbox','checkbox','radio','combobox','listbox',
    'option','menuitem','menuitemcheckbox','menuitemradio','tab','switch','slider','spinbutton',
    'treeitem','gridcell','scrollbar','grid','treegrid','tree']);
  // What a pointer-styled element must not contain to count as clickable
  // itself (the control inside is what takes the click).
  const CONTROLS = 'a[href],button,input,select,textarea,summary,[role],[tabindex],[onclick],[contenteditable]';
  // Elements a click inside of reaches anyway: nothing in them is listed
  // again as clickable.
  const CONTAINERS = new Set(['grid','treegrid','tree','listbox','menu','menubar','tablist','radiogroup','group']);
  const out = [];
  const depths = [];
  // A layer that takes the hits over most of the viewport (a cookie wall
  // without dialog semantics): the outermost positioned element covering
  // half the viewport under at least 4 of 5 sample points.
  function findCover() {
    const vw = innerWidth, vh = innerHeight, seen = new Map();
    for (const [fx, fy] of [[.5, .5], [.25, .25], [.75, .25], [.25, .75], [.75, .75]]) {
      let best = null;
      for (let c = document.elementFromPoint(vw * fx, vh * fy);
           c && c !== document.body && c !== document.documentElement; c = c.parentElement) {
        const pos = getComputedStyle(c).position;
        if (pos !== 'fixed' && pos !== 'absolute') continue;
        const r = c.getBoundingClientRect();
        const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
        const h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
        if (w * h >= 0.5 * vw * vh) best = c;
      }
      if (best) seen.set(best, (seen.get(best) || 0) + 1);
    }
    for (const [el, n] of seen) if (n >= 4) return el;
    return null;
  }
  const cover = findCover();
  function isDialog(el) {
    if (el === cover) return true;
    if (el.localName === 'dialog') return el.open;
    const r = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    return r === 'dialog' || r === 'alertdialog' || el.getAttribute('aria-modal') === 'true';
  }
  // A named group of controls (a fieldset, role=group or radiogroup): a
  // surface like a dialog, read for its name and never counted, so that
  // what it holds can be told apart (a "Filter by brand" fieldset).
  function isGroup(el) {
    if (el.localName === 'fieldset') return true;
    const r = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    return r === 'group' || r === 'radiogroup';
  }
  function isSurface(el) { return isDialog(el) || isGroup(el); }
  // (`attrs`: whether it has attributes; one without can be a surface
  // only as a dialog, a fieldset or the cover, and has no role.)
  function isCandidate(el, attrs) {
    const t = el.localName;
    if ((attrs || t === 'dialog' || t === 'fieldset' || el === cover) && isSurface(el)) return true;
    if (t === 'a' || t === 'area') return el.hasAttribute('href');
    if (t === 'button' || t === 'select' || t === 'textarea' || t === 'summary') return true;
    if (t === 'input') return el.type !== 'hidden';
    const r = attrs ? roleOf(el) : '';
    if (r === 'row') return !!el.closest('[role=grid],[role=treegrid]');
    if (ROLES.has(r)) return true;
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return true;
    return false;
  }
  function roleOf(el) {
    const r = el.getAttribute('role');
    return r ? r.trim().split(/\s+/)[0] : '';
  }
  // A short name for an element the walk lists by itself (a clickable or
  // a scroll container): its label, else its first text a person sees
  // (text in hidden or transparent elements is left out).
  function shortName(el) {
    const l = el.getAttribute('aria-label') || el.getAttribute('title') || el.getAttribute('alt');
    if (l && l.trim()) return l.trim().slice(0, 80);
    let s = '';
    const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n && s.length < 80; n = w.nextNode()) {
      const p = n.parentElement;
      if (!p || p.localName === 'script' || p.localName === 'style' || !n.data.trim()
          || !p.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
      s += ' ' + n.data;
    }
    return s.replace(/\s+/g, ' ').trim().slice(0, 80);
  }
  // Whether an element takes clicks without an interactive role: a click
  // handler it carries, a tab stop, or the pointer cursor its parent does
  // not have (the outermost pointer element, holding no control).
  function clickable(el, attrs, pointer) {
    if (el.localName === 'label' || el.localName === 'option') return false;
    if (typeof el.onclick === 'function') return true;
    if (attrs && (el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0))) return true;
    return pointer && !el.querySelector(CONTROLS);
  }
  // A vertical scroll container. Overflow first: reading the style is
  // cheaper than reading the layout.
  function scrolls(el, cs) {
    const oy = cs.overflowY;
    if (oy !== 'auto' && oy !== 'scroll') return false;
    if (el === document.body || el === document.documentElement) return false;
    return el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1;
  }
  // Text-level elements whose style is not read when they carry no
  // attribute (no class, no style): they inherit the pointer cursor and
  // do not scroll by themselves in practice, and on a long text page they
  // are most of the elements.
  const TEXT = new Set(['p','span','b','i','em','strong','small','code','mark','u','s','sub','sup',
    'abbr','cite','q','time','br','wbr']);
  function visible(el) {
    if (!el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) {
      // display:contents has no box, yet it is in the accessibility tree.
      const cs = getComputedStyle(el);
      if (cs.display !== 'contents' || cs.visibility !== 'visible') return false;
      const p = el.parentElement || (el.getRootNode() && el.getRootNode().host);
      return !p || p.checkVisibility({visibilityProperty: true});
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }
  // Whether anything above an element may change what Chromium's
  // accessibility tree says of it (aria-hidden, aria-disabled, a control
  // around it); the per-candidate answer is kept in `plainAbove`.
  const plainAbove = [];
  // Per candidate: what the page knows of it beyond role and name (0 for
  // nothing): `k` 'clickable' or 'scrollable' with its name `n` for one
  // listed by the walk itself, `s` a candidate that scrolls, `h` a link's
  // target, `o`/`m` a select's first option labels and how many more,
  // `rq` a native field required, `iv` aria-invalid or a native field the
  // user's input made invalid (not one merely empty yet),
  // `lv` the level of a clickable heading.
  const extra = [];
  function facts(el, kind, scroll) {
    const f = {};
    if (kind) { f.k = kind; f.n = shortName(el); }
    const lv = /^h[1-6]$/.test(el.localName) ? +el.localName[1] : +(el.getAttribute('aria-level') || 0);
    if (kind && lv > 0) f.lv = lv;
    if (scroll && !kind) f.s = 1;
    const t = el.localName;
    if ((t === 'a' || t === 'area') && el.hasAttribute('href')) {
      const h = el.href;
      f.h = h.length > 2048 ? h.slice(0, 2048) : h;
    }
    if (t === 'select') {
      const o = [];
      for (let i = 0; i < el.options.length && i < 25; i++) {
        o.push(el.options[i].label.replace(/\s+/g, ' ').trim().slice(0, 80));
      }
      f.o = o;
      f.m = Math.max(0, el.options.length - o.length);
    }
    const field = t === 'input' || t === 'select' || t === 'textarea';
    if (field && el.required) f.rq = 1;
    const ai = el.getAttribute('aria-invalid');
    if ((ai && ai !== 'false') || (field && el.matches(':user-invalid'))) f.iv = 1;
    return Object.keys(f).length ? f : 0;
  }
  // `inside`: within a listed control, whose clicks reach what it holds
  // (nothing there is listed again as clickable); `pointer`: the parent
  // shows the pointer cursor; `hidden`: under aria-hidden.
  function walk(node, depth, plain, inside, pointer, hidden) {
    let kids;
    if (node.shadowRoot) kids = node.shadowRoot.children;
    else if (node.localName === 'slot') {
      kids = node.assignedElements({flatten: true});
      if (!kids.length) kids = node.children;
    } else kids = node.children;
    for (let i = 0; i < kids.length; i++) {
      const el = kids[i];
      const t = el.localName;
      const attrs = el.hasAttributes();
      if ((attrs && el.hasAttribute('inert')) || t === 'template' || t === 'script' || t === 'style' || t === 'head') continue;
      let nest = depth;
      const candidate = isCandidate(el, attrs);
      const cs = inside || (!attrs && TEXT.has(t)) ? null : getComputedStyle(el);
      const ptr = cs === null ? pointer && !inside : cs.cursor === 'pointer';
      const hid = hidden || (attrs && el.getAttribute('aria-hidden') === 'true');
      // (A box holding only text scrolls rarely: its overflow is not read.)
      const scroll = cs !== null && !hid && el.childElementCount > 0 && scrolls(el, cs);
      let kind = '';
      if (!candidate && !inside && !hid) {
        if (scroll) kind = 'scrollable';
        else if (clickable(el, attrs, ptr && !pointer)) kind = 'clickable';
      }
      const listed = (candidate || kind !== '') && visible(el);
      if (listed) {
        out.push(el);
        depths.push(depth);
        plainAbove.push(plain);
        extra.push(facts(el, kind, scroll));
        if (out.length >= limit) return true;
        // What a dialog (or cover, or group) contains is one level deeper.
        if (isSurface(el)) nest = depth + 1;
      }
      const holds = listed && kind !== 'scrollable' && !isSurface(el) && !CONTAINERS.has(roleOf(el));
      const keep = plain && (!candidate || isSurface(el))
        && (!attrs || (!el.hasAttribute('aria-hidden') && !el.hasAttribute('aria-disabled')));
      if (walk(el, nest, keep, inside || holds, ptr, hid)) return true;
    }
    return false;
  }
  walk(document, 0, true, false, false, false);
  // How many surfaces enclose each candidate: a dialog's or group's
  // controls follow it, one deeper, and the first candidate outside is
  // back at its level.
  out.depths = depths.join(',');
  // Which candidates are surfaces (dialogs, the cover, groups): they do
  // not count.
  out.dlg = out.map((el, i) => isSurface(el) ? i : -1).filter(i => i >= 0).join(',');
  out.cover = cover ? String(out.indexOf(cover)) : '-1';
  // The page facts travel with the list (one round trip less).
  out.href = location.href;
  out.title = document.title;
  // Which candidates are password fields (their values are withheld, and
  // an empty one is still a sign-in surface).
  out.pw = out.map((el, i) => el.localName === 'input' && el.type === 'password' ? i : -1)
    .filter(i => i >= 0).join(',');
  const fast = FAST(out, plainAbove, out.some(isDialog));
  // What the walk lists by itself it also describes: its own role and
  // name, whatever the accessibility tree makes of the element.
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) {
    active = active.shadowRoot.activeElement;
  }
  extra.forEach((f, i) => {
    if (f && f.k) fast[i] = [f.k, f.n, null, null, 0, out[i] === active && document.hasFocus() ? 1 : 0];
  });
  out.fast = JSON.stringify(fast);
  out.extra = JSON.stringify(extra);
  return out;
}
