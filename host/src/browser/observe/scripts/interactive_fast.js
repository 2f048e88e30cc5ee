function (els, plainAbove, dialog) {
  // Role, name and state of the candidates whose accessibility data
  // follows from the markup alone, so Chromium need not be asked for
  // them: native links, buttons, text fields, checkboxes and radios, named
  // by aria-label, by plain inline text or by one plain label. Anything
  // else (a role or other aria-* attribute, an image or block inside,
  // CSS-generated or transformed text, a focused text field, whose focus
  // feeds the autocomplete hint, any open dialog on the page) answers 0:
  // ask Chromium. For each candidate:
  // 0, or [role, name, value | null, checked | null, disabled, focused].
  if (dialog || document.querySelector(':modal')) return els.map(() => 0);
  const INLINE = new Set(['span', 'b', 'strong', 'i', 'em', 'small', 'code', 'mark', 'u', 's']);
  const TEXT_TYPES = {text: 'textbox', email: 'textbox', tel: 'textbox', url: 'textbox',
    password: 'textbox', search: 'searchbox'};
  // Attributes that change neither role, name nor the states read here.
  const SAFE = new Set(['id', 'class', 'style', 'name', 'type', 'href', 'value', 'placeholder',
    'aria-label', 'for', 'target', 'rel', 'autocomplete', 'title', 'tabindex', 'checked',
    'disabled', 'required', 'readonly', 'maxlength', 'minlength', 'pattern', 'inputmode',
    'spellcheck', 'autofocus', 'form', 'download', 'hreflang', 'lang', 'translate', 'draggable']);
  function plainAttrs(el) {
    for (const a of el.attributes) {
      const n = a.name;
      if (!SAFE.has(n) && !n.startsWith('data-') && !n.startsWith('on')) return false;
    }
    return true;
  }
  function pseudoText(el) {
    for (const p of ['::before', '::after']) {
      const c = getComputedStyle(el, p).content;
      if (c !== 'none' && c !== 'normal') return true;
    }
    return false;
  }
  function plainStyle(el) {
    const cs = getComputedStyle(el);
    return cs.textTransform === 'none' && cs.content === 'normal' && !pseudoText(el);
  }
  // The text of `node`'s children when they are only text and plain
  // inline elements (`skip` left out), else null.
  function inlineText(node, skip) {
    let s = '';
    for (const c of node.childNodes) {
      if (c === skip || c.nodeType === 8) continue;
      if (c.nodeType === 3) { s += c.data; continue; }
      if (c.nodeType !== 1 || !INLINE.has(c.localName) || c.shadowRoot || !plainAttrs(c)
          || c.hasAttribute('aria-label') || c.hasAttribute('title')) return null;
      const cs = getComputedStyle(c);
      if (cs.display !== 'inline' || cs.visibility !== 'visible' || !plainStyle(c)) return null;
      const t = inlineText(c, null);
      if (t === null) return null;
      s += t;
    }
    return s;
  }
  function ariaLabel(el) {
    if (!el.hasAttribute('aria-label')) return undefined;
    const l = el.getAttribute('aria-label').trim();
    return l ? l : null;
  }
  function contentName(el) {
    const l = ariaLabel(el);
    if (l !== undefined) return l;
    const t = inlineText(el, null);
    return t && t.trim() ? t : null;
  }
  // Each control's labels, found once per tree (asking every control for
  // its `labels` walks the whole document each time).
  const labelsOf = new Map();
  for (const root of new Set(els.map(el => el.getRootNode()))) {
    for (const label of root.querySelectorAll('label')) {
      const c = label.control;
      if (c) labelsOf.set(c, (labelsOf.get(c) || []).concat([label]));
    }
  }
  function labelName(el) {
    const l = ariaLabel(el);
    if (l !== undefined) return l;
    const labels = labelsOf.get(el);
    if (!labels || labels.length !== 1) return null;
    const label = labels[0];
    if (!plainAttrs(label) || label.hasAttribute('aria-label') || !plainStyle(label)) return null;
    const t = inlineText(label, el);
    return t && t.trim() ? t : null;
  }
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) {
    active = active.shadowRoot.activeElement;
  }
  function describe(el, plain) {
    if (!plain || !(el instanceof HTMLElement) || el.shadowRoot
        || !plainAttrs(el) || !plainStyle(el)) return 0;
    const t = el.localName;
    let role, name, value = null, checked = null;
    if (t === 'a') {
      role = 'link';
      name = contentName(el);
    } else if (t === 'button') {
      role = 'button';
      name = contentName(el);
    } else if (t === 'textarea') {
      role = 'textbox';
      name = labelName(el);
      value = el.value || null;
    } else if (t === 'input') {
      if (el.type === 'checkbox' || el.type === 'radio') {
        role = el.type;
        checked = el.type === 'checkbox' && el.indeterminate ? 'mixed' : String(el.checked);
      } else if (TEXT_TYPES[el.type]) {
        role = TEXT_TYPES[el.type];
        value = el.type === 'password' ? null : (el.value || null);
      } else {
        return 0;
      }
      name = labelName(el);
    } else {
      return 0;
    }
    if (name === null || (el === active && (role === 'textbox' || role === 'searchbox'))) return 0;
    const disabled = t !== 'a' && el.matches(':disabled') ? 1 : 0;
    // Chromium marks focus only while the page itself has it.
    const focused = el === active && document.hasFocus() ? 1 : 0;
    return [role, name, value, checked, disabled, focused];
  }
  return els.map((el, i) => describe(el, plainAbove[i]));
}
