function (limit) {
  // The page's interactive candidates in document (flat-tree) order:
  // through open shadow roots and slots, stopping after `limit`. Chromium's
  // accessibility tree decides role, name and whether a candidate counts.
  const ROLES = new Set(['button','link','textbox','searchbox','checkbox','radio','combobox','listbox',
    'option','menuitem','menuitemcheckbox','menuitemradio','tab','switch','slider','spinbutton',
    'treeitem','gridcell','scrollbar']);
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
  function isCandidate(el) {
    const t = el.localName;
    if (isSurface(el)) return true;
    if (t === 'a' || t === 'area') return el.hasAttribute('href');
    if (t === 'button' || t === 'select' || t === 'textarea' || t === 'summary') return true;
    if (t === 'input') return el.type !== 'hidden';
    const r = el.getAttribute('role');
    if (r && ROLES.has(r.trim().split(/\s+/)[0])) return true;
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return true;
    if (el.hasAttribute('tabindex') && el.getAttribute('tabindex') !== '-1') return true;
    return false;
  }
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
  function walk(node, depth, plain) {
    let kids;
    if (node.shadowRoot) kids = node.shadowRoot.children;
    else if (node.localName === 'slot') {
      kids = node.assignedElements({flatten: true});
      if (!kids.length) kids = node.children;
    } else kids = node.children;
    for (let i = 0; i < kids.length; i++) {
      const el = kids[i];
      const t = el.localName;
      if (el.hasAttribute('inert') || t === 'template' || t === 'script' || t === 'style' || t === 'head') continue;
      let nest = depth;
      const candidate = isCandidate(el);
      if (candidate && visible(el)) {
        out.push(el);
        depths.push(depth);
        plainAbove.push(plain);
        if (out.length >= limit) return true;
        // What a dialog (or cover, or group) contains is one level deeper.
        if (isSurface(el)) nest = depth + 1;
      }
      const keep = plain && (!candidate || isSurface(el)) && !el.hasAttribute('aria-hidden')
        && !el.hasAttribute('aria-disabled');
      if (walk(el, nest, keep)) return true;
    }
    return false;
  }
  walk(document, 0, true);
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
  out.fast = JSON.stringify(FAST(out, plainAbove, out.some(isDialog)));
  return out;
}
