function (op, arg) {
  // Page side of `page-select`, run with `this` bound to the widget the
  // ref names. Every step is one operation: `inspect`, `native-set`,
  // `prepare`, `open-point`, `options`, `option-point`, `readback`.
  const el = this;
  const MAX_OPTIONS = 2000, MAX_LABEL = 200, MAX_TEXT = 5000;
  const BEFORE = Symbol.for('browser-pilot.select.before');
  const POPUP = Symbol.for('browser-pilot.select.popup');
  const norm = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  const cut = (s) => (s.length > MAX_LABEL ? s.slice(0, MAX_LABEL) : s);
  const roleOf = (e) => ((e && e.getAttribute && e.getAttribute('role')) || '').trim().toLowerCase();
  const disabled = (e) => !!e && (e.disabled === true || e.getAttribute('aria-disabled') === 'true' ||
    (typeof e.matches === 'function' && e.matches(':disabled')));
  const visible = (e) => {
    if (!e || !e.isConnected) return false;
    if (e.checkVisibility && !e.checkVisibility({visibilityProperty: true})) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const labelOf = (o) => cut(norm(o.getAttribute('aria-label') || o.innerText || o.textContent));
  const valueOf = (o) => {
    const v = o.getAttribute('data-value');
    return v != null ? v : o.getAttribute('value');
  };

  // ---- native <select> ----
  const nativeSelected = () => Array.from(el.selectedOptions || []).slice(0, 100)
    .map((o) => ({label: cut(norm(o.label || o.text)), value: o.value}));
  if (op === 'inspect' && el.tagName === 'SELECT') {
    const options = Array.from(el.options).slice(0, MAX_OPTIONS).map((o) => ({
      label: cut(norm(o.label || o.text)), value: o.value, selected: o.selected,
      disabled: o.disabled || (o.parentElement && o.parentElement.tagName === 'OPTGROUP' && o.parentElement.disabled),
    }));
    // Hidden from people, as widget libraries keep the select they stand
    // in for (no box, clipped to a pixel, or transparent under another
    // element; a transparent select on top of its styled box, which takes
    // the click itself, is not hidden): not for choosing.
    const r = el.getBoundingClientRect();
    const under = () => {
      const hit = el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !hit || !el.contains(hit);
    };
    const hidden = !visible(el) || r.width <= 1 || r.height <= 1 ||
      (parseFloat(getComputedStyle(el).opacity) === 0 && under());
    return {kind: el.multiple ? 'native-multiple' : 'native-single', disabled: disabled(el),
      hidden, options, total: el.options.length};
  }
  if (op === 'native-set') {
    const want = new Set(arg);
    const opts = Array.from(el.options);
    const before = opts.map((o) => o.selected);
    if (typeof el.focus === 'function') el.focus();
    if (el.multiple) opts.forEach((o, i) => { o.selected = want.has(i); });
    else el.selectedIndex = arg[0];
    const changed = opts.some((o, i) => o.selected !== before[i]);
    if (changed) {
      el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
      el.dispatchEvent(new Event('change', {bubbles: true}));
    }
    return {changed, selected: nativeSelected()};
  }
  if (op === 'native-read') return {selected: nativeSelected()};

  // ---- ARIA combobox and listbox ----
  const optionsIn = (lb) => Array.from(lb.querySelectorAll('[role="option"]'));
  const listboxes = () => Array.from(document.querySelectorAll('[role="listbox"]'));
  const withOptions = (lb) => !!lb && lb.querySelector('[role="option"]') !== null;
  const controlled = () => {
    const ids = norm((el.getAttribute('aria-controls') || '') + ' ' + (el.getAttribute('aria-owns') || ''))
      .split(' ').filter(Boolean);
    const root = el.getRootNode();
    for (const id of ids) {
      const t = (root.getElementById && root.getElementById(id)) || document.getElementById(id);
      if (!t) continue;
      if (roleOf(t) === 'listbox') return t;
      const inner = t.querySelector('[role="listbox"]');
      if (inner) return inner;
      if (withOptions(t)) return t;
    }
    return null;
  };
  // The popup: the listbox the widget names, else the one found before
  // in this call, else a listbox that became visible since
  // `prepare` (a portal, or a dropdown of its own), else the last of its
  // own that shows options, else the one found last (for reads after it
  // closed).
  const popup = () => {
    if (roleOf(el) === 'listbox') return {lb: el, open: visible(el)};
    const named = controlled();
    if (named && visible(named)) return {lb: named, open: true};
    const last = el[POPUP] && el[POPUP].isConnected ? el[POPUP] : null;
    // Found once in this call, it stays the popup, shown or not.
    if (last) return {lb: last, open: visible(last)};
    const before = el[BEFORE] || [];
    const fresh = listboxes().filter((l) => visible(l) && withOptions(l) && !before.includes(l));
    if (fresh.length) return {lb: fresh[fresh.length - 1], open: true};
    const own = Array.from(el.querySelectorAll('[role="listbox"]')).filter((l) => visible(l) && withOptions(l));
    // A listbox of its own that always shows (a list of chosen items) is
    // the popup only while the widget says it is expanded.
    const expanded = el.getAttribute('aria-expanded');
    if (own.length && expanded !== 'false') return {lb: own[own.length - 1], open: true};
    return {lb: named || last, open: false};
  };
  // The native select a widget stands for (a library keeps it hidden
  // beside or inside its control): it says whether the widget takes
  // several options.
  const backing = () => {
    let a = el;
    for (let depth = 0; a && depth < 5; depth++, a = a.parentElement) {
      const s = a.querySelector('select') ||
        (a.previousElementSibling && a.previousElementSibling.tagName === 'SELECT' ? a.previousElementSibling : null);
      if (s) return s;
    }
    return null;
  };
  const centre = (e) => {
    const r = e.getBoundingClientRect();
    const local = {x: r.left + r.width / 2, y: r.top + r.height / 2};
    let x = local.x, y = local.y, w = e.ownerDocument.defaultView;
    try {
      while (w && w.frameElement) {
        const f = w.frameElement, fr = f.getBoundingClientRect();
        x += fr.left + f.clientLeft; y += fr.top + f.clientTop; w = w.parent;
      }
    } catch (_) { /* a cross-origin parent: the frame's own offsets stand */ }
    return {local, x, y};
  };
  const inView = (e) => {
    const r = e.getBoundingClientRect(), v = e.ownerDocument.defaultView;
    return r.top >= 0 && r.left >= 0 && r.bottom <= v.innerHeight && r.right <= v.innerWidth;
  };
  const pointAt = (e, owner) => {
    if (!inView(e)) e.scrollIntoView({block: 'nearest', inline: 'nearest', behavior: 'instant'});
    const c = centre(e);
    const hit = e.ownerDocument.elementFromPoint(c.local.x, c.local.y);
    if (hit && (owner.contains(hit) || hit.contains(owner))) return {x: c.x, y: c.y};
    return {covered: true, role: hit ? (roleOf(hit) || hit.tagName.toLowerCase()) : '',
      name: hit ? cut(norm(hit.getAttribute('aria-label') || hit.innerText || '')).slice(0, 80) : ''};
  };
  if (op === 'inspect') {
    const role = roleOf(el);
    const haspopup = (el.getAttribute('aria-haspopup') || '').toLowerCase();
    const expanded = el.getAttribute('aria-expanded') === 'true';
    if (role === 'listbox') {
      return {kind: 'listbox', disabled: disabled(el), expanded: true,
        multiple: el.getAttribute('aria-multiselectable') === 'true'};
    }
    if (role === 'combobox' || haspopup === 'listbox') {
      return {kind: 'combobox', disabled: disabled(el), expanded};
    }
    return {kind: 'other', role: role || el.tagName.toLowerCase()};
  }
  if (op === 'prepare') {
    el[POPUP] = null;
    el[BEFORE] = listboxes().filter(visible);
    return popup().open;
  }
  if (op === 'open-point') {
    // The widget itself, or its wrapper when the widget has no box of its
    // own that takes the click (an input shrunk inside its control).
    for (const e of [el, el.parentElement]) {
      if (!e || !visible(e)) continue;
      const p = pointAt(e, e);
      if (!p.covered) return p;
      if (e === el.parentElement) return p;
    }
    return {covered: true, role: '', name: '', invisible: true};
  }
  if (op === 'options') {
    const {lb, open} = popup();
    if (!lb) return {found: false, open: false, options: [], total: 0, multiple: false};
    el[POPUP] = lb;
    const all = optionsIn(lb);
    const options = all.slice(0, MAX_OPTIONS).map((o) => ({
      label: labelOf(o), value: valueOf(o), disabled: disabled(o),
      selected: o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true',
    }));
    return {found: true, open, options, total: all.length,
      multiple: lb.getAttribute('aria-multiselectable') === 'true' ||
        el.getAttribute('aria-multiselectable') === 'true' || !!(backing() || {}).multiple};
  }
  if (op === 'option-point') {
    const {lb} = popup();
    if (!lb) return {gone: true};
    const o = optionsIn(lb).find((o) => (arg.by === 'value' ? valueOf(o) === arg.want : labelOf(o) === arg.want));
    if (!o) return {gone: true};
    if (disabled(o)) return {disabled: true};
    return pointAt(o, o);
  }
  if (op === 'readback') {
    // What the widget shows now: aria-selected options of a listbox, or
    // the visible text of the widget and its control (chips, the chosen
    // item, an input's value), the popup and native options left out.
    const shown = [];
    if (roleOf(el) === 'listbox') {
      for (const o of optionsIn(el)) {
        if (o.getAttribute('aria-selected') === 'true') shown.push(labelOf(o));
      }
      return {text: '', labels: shown};
    }
    const skip = el[POPUP] || null;
    let out = '';
    const walk = (n) => {
      if (out.length > MAX_TEXT) return;
      if (n.nodeType === 3) { out += n.nodeValue + ' '; return; }
      if (n.nodeType !== 1 || n === skip) return;
      if (['SELECT', 'OPTION', 'SCRIPT', 'STYLE', 'TEMPLATE'].includes(n.tagName)) return;
      if (n.checkVisibility && !n.checkVisibility({visibilityProperty: true})) return;
      if (n.tagName === 'INPUT' && n.type !== 'password' && n.type !== 'hidden') out += ' ' + n.value + ' ';
      for (const c of n.childNodes) walk(c);
    };
    walk(el);
    const parent = el.parentElement;
    if (parent && parent !== document.body && norm(parent.textContent).length <= 1000) walk(parent);
    const text = norm(out);
    const labels = (arg || []).filter((l) => l && text.includes(l));
    return {text: text.slice(0, 300), labels};
  }
  return null;
}
