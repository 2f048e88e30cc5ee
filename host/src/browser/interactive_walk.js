function (limit) {
  // The page's interactive candidates in document (flat-tree) order:
  // through open shadow roots and slots, stopping after `limit`. Chromium's
  // accessibility tree decides role, name and whether a candidate counts.
  const ROLES = new Set(['button','link','textbox','searchbox','checkbox','radio','combobox','listbox',
    'option','menuitem','menuitemcheckbox','menuitemradio','tab','switch','slider','spinbutton',
    'treeitem','gridcell','scrollbar']);
  const out = [];
  const depths = [];
  function isDialog(el) {
    if (el.localName === 'dialog') return el.open;
    const r = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    return r === 'dialog' || r === 'alertdialog' || el.getAttribute('aria-modal') === 'true';
  }
  function isCandidate(el) {
    const t = el.localName;
    if (isDialog(el)) return true;
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
  function walk(node, depth) {
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
      if (isCandidate(el) && visible(el)) {
        out.push(el);
        depths.push(depth);
        if (out.length >= limit) return true;
      }
      if (walk(el, depth + 1)) return true;
    }
    return false;
  }
  walk(document, 0);
  // DOM depth of each candidate: what contains what (a dialog's controls
  // follow it, deeper).
  out.depths = depths.join(',');
  // The page facts travel with the list (one round trip less).
  out.href = location.href;
  out.title = document.title;
  // Which candidates are password fields (their values are withheld, and
  // an empty one is still a sign-in surface).
  out.pw = out.map((el, i) => el.localName === 'input' && el.type === 'password' ? i : -1)
    .filter(i => i >= 0).join(',');
  return out;
}
