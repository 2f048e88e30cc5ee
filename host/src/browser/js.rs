//! Page-side functions run with `Runtime.callFunctionOn`. They read state;
//! they never modify the page.

/// Live state of a node, for evidence (password values withheld), with
/// the mutations the settle observer of its window has counted
/// (`input/settle_after.rs`; `null` without one). A form
/// field's editability is its type and state: it is never asked
/// `isContentEditable`, which makes the page bring its style up to date
/// first (right after typing, work the read need not wait for).
pub const NODE_STATE: &str = r#"function() {
  const el = this;
  const tag = (el.tagName || '').toLowerCase();
  const type = tag === 'input' ? (el.type || 'text').toLowerCase() : null;
  const isPassword = type === 'password';
  const formField = tag === 'input' || tag === 'textarea' || tag === 'select';
  const hasValue = 'value' in el && formField;
  const ce = !formField && el.isContentEditable;
  const raw = hasValue ? String(el.value) : (ce ? el.innerText : null);
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  const textTypes = ['text','search','email','url','tel','password','number',''];
  // (`:disabled` also covers a control inside a disabled fieldset.)
  const disabled = !!el.disabled || (el.matches ? el.matches(':disabled') : false);
  const editable = !disabled && !el.readOnly && (
    ce || tag === 'textarea' || (tag === 'input' && textTypes.includes(type)));
  return {
    tag, inputType: type,
    value: raw === null || isPassword ? null : raw,
    valueLength: raw === null ? 0 : raw.length,
    checked: (type === 'checkbox' || type === 'radio') ? !!el.checked : null,
    focused: !!active && (active === el || el.contains(active)),
    editable, connected: el.isConnected,
    mutations: ((window[Symbol.for('browser-pilot.settle')] || {}).n ?? null),
  };
}"#;

/// What a person sees of a node (`this`): see `page_text.js`. Called with
/// the character budget, whether to keep hidden text, and [`FIELD_CHARS`].
pub const NODE_TEXT: &str = include_str!("page_text.js");

/// Most characters of one form field's value a read passes on.
pub const FIELD_CHARS: u32 = 4_000;

/// What a person sees of the whole document, cut at `max` UTF-16 units.
pub fn page_text(max: u32, include_hidden: bool) -> String {
    format!(
        "({NODE_TEXT}).call(document.body || document.documentElement, {max}, {include_hidden}, {FIELD_CHARS})"
    )
}

/// Hit test at viewport point (x, y): returns null when the point lands on
/// this node (or a descendant); `"own_label"` when it lands on the node's
/// label (which forwards the click); `"own_part"` when it lands on another
/// part of the same control: a wrapper that holds it, or an element that
/// shares with it an ancestor (other than `body`) holding no other form
/// control or link, is no dialog layer and is about the control's size
/// or smaller (a styled track over a hidden range input; a layer over the
/// whole group is a cover). Else the covering element (nearest ancestor
/// with a role or an interactive tag).
pub const HIT_TEST: &str = r#"function(x, y) {
  let el = document.elementFromPoint(x, y);
  while (el && el.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  if (!el) return document.documentElement;
  if (el === this || this.contains(el)) return null;
  const label = el.closest && el.closest('label');
  if (label && label.control === this) return 'own_label';
  if (this.labels && Array.from(this.labels).some(l => l === el || l.contains(el))) return 'own_label';
  const top = this.ownerDocument;
  const controls = 'input,select,textarea,button,a[href],[contenteditable=""],[contenteditable=true]';
  const only = (g) => Array.from(g.querySelectorAll(controls)).every(c => c === this || this.contains(c));
  const area = (e) => { const r = e.getBoundingClientRect(); return r.width * r.height; };
  const layer = (e) => e.closest('dialog,[role=dialog],[role=alertdialog],[aria-modal=true]');
  let group = this.parentElement;
  while (group && group !== top.body && group !== top.documentElement && only(group)) {
    if (group === el) return 'own_part';
    if (group.contains(el)) {
      const part = !layer(el) && area(el) <= 1.5 * area(this) + 64;
      if (part) return 'own_part';
      break;
    }
    group = group.parentElement;
  }
  const interactive = ['button','a','input','select','textarea','dialog','summary'];
  let c = el;
  while (c && c.nodeType === 1) {
    if (c.getAttribute('role') || interactive.includes(c.tagName.toLowerCase())) return c;
    c = c.parentElement;
  }
  return el;
}"#;

/// Synthetic `click()` for the `dom_event` route.
pub const DOM_CLICK: &str = "function() { this.click(); }";

/// Document URL, title and main-document HTTP status.
pub const PAGE_FACTS: &str = "[location.href, document.title, (performance.getEntriesByType('navigation')[0] || {}).responseStatus || null]";

/// The deep composed active element: through open shadow roots and
/// same-process frames. A cross-process `<iframe>` is returned as is (its
/// document is asked separately).
pub const ACTIVE_ELEMENT: &str = r#"(() => {
  let a = document.activeElement;
  for (let i = 0; a && i < 32; i++) {
    if (a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
    let inner = null;
    try { inner = a.contentDocument && a.contentDocument.activeElement; } catch (e) {}
    if (inner && inner !== a.contentDocument.body) { a = inner; continue; }
    break;
  }
  return a === document.body ? null : a;
})()"#;

/// How many `pointerup` events the browser has dispatched in this
/// document (`null` where it does not count them). A click's page read
/// sent right behind its release is taken only once this has moved on
/// (`observe/proved_read.rs`); a page that cancels `pointerdown` suppresses
/// `mouseup`, but never `pointerup`.
pub(super) const POINTERUPS: &str =
    "(performance.eventCounts ? performance.eventCounts.get('pointerup') ?? 0 : null)";

/// How many `keyup` events the browser has dispatched in the document
/// of the element `this` (`null` where it does not count them). A key's
/// focus read sent right behind its release is taken only once this has
/// moved on (`observe/proved_read.rs`).
pub const KEYUPS_OF_THIS: &str = "(() => { const w = this.ownerDocument && this.ownerDocument.defaultView; \
return w && w.performance && w.performance.eventCounts ? w.performance.eventCounts.get('keyup') ?? 0 : null; })()";

/// Install (or reset) the settle observer of the main document
/// (`input/settle_after.rs`): counts mutations and the time of the last one,
/// and disconnects itself after 15 s unless read and reset before.
/// Page-side only; the page does not see it unless it looks for the
/// registered symbol.
pub(super) const OBSERVE: &str = "(() => { const k = Symbol.for('browser-pilot.settle'); let s = window[k]; \
if (!s) { s = {n: 0, last: 0, o: null}; Object.defineProperty(window, k, {value: s, configurable: true}); } \
if (!s.o) s.o = new MutationObserver(rs => { s.n += rs.length; s.last = performance.now(); }); \
s.o.disconnect(); s.n = 0; s.last = 0; clearTimeout(s.t); s.t = setTimeout(() => s.o.disconnect(), 15000); \
s.o.observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); })()";

/// Whether anything animating in the element's document could move it
/// (`input/actionable.rs`): a running animation of the element or an ancestor,
/// or one elsewhere that animates more than paint (a transform, opacity
/// or colour elsewhere moves nothing, as a spinner's). Called with the
/// element.
pub(super) const ANIMATING: &str = r#"function(el) {
  const doc = el.ownerDocument;
  if (!doc || !doc.getAnimations) return false;
  const paint = ['transform', 'rotate', 'scale', 'translate', 'opacity', 'color', 'backgroundColor',
    'filter', 'boxShadow', 'outlineColor', 'fill', 'stroke', 'strokeDashoffset', 'strokeDasharray',
    'offset', 'easing', 'composite', 'computedOffset'];
  return doc.getAnimations().some(a => {
    if (a.playState !== 'running') return false;
    const e = a.effect, t = e && e.target;
    if (!t || t === el || (t.contains && t.contains(el))) return true;
    const frames = e.getKeyframes ? e.getKeyframes() : [{x: 1}];
    return frames.some(f => Object.keys(f).some(k => !paint.includes(k)));
  });
}"#;

/// [`NODE_STATE`] of the node and [`PAGE_FACTS`] of its document together
/// (one round trip for evidence), with [`POINTERUPS`].
pub fn node_and_page() -> String {
    format!("function() {{ return {{state: ({NODE_STATE}).call(this), facts: {PAGE_FACTS}, pointerups: {POINTERUPS}}}; }}")
}

/// What revalidating a main-frame ref reads: [`node_and_page`], plus
/// where a click would aim if the node is already wholly in the viewport,
/// enabled, nothing in the document is animating, and its centre hits it
/// (`aim`: `{x, y}`, else `null`). That is what [`aim`] would find
/// without scrolling, so a click need not ask again, and the node is
/// ready for input (`input/actionable.rs`) with no check of its own.
/// And [`POINTERUPS`], as a click's count before its press.
pub fn revalidate_main() -> String {
    format!(
        "function() {{
  const state = ({NODE_STATE}).call(this);
  let aim = null;
  const r = state.connected && this.getClientRects
    ? Array.from(this.getClientRects()).find(r => r.width * r.height > 1) : null;
  const ready = r && !(this.matches && this.matches(':disabled'))
    && !(this.closest && this.closest('[aria-disabled=\"true\"]'))
    && !({ANIMATING})(this);
  if (ready && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight) {{
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (({HIT_TEST}).call(this, x, y) === null) aim = {{x, y}};
  }}
  {OBSERVE};
  return {{state, facts: {PAGE_FACTS}, aim, pointerups: {POINTERUPS}}};
}}",
    )
}

/// What `input.focus-editable` runs on a main-frame node: its
/// [`NODE_STATE`] and, only if that says it is connected and editable,
/// the element's `focus()` (the prototype's, where the page has not
/// replaced it on the element). `focus` says where focus went: `self`
/// (the deep active element is the node), `moved` (a handler took it on
/// to another element), `none` (nothing changed: the node cannot take
/// focus), or `null` when it was not focused. With `selectAll` and focus
/// on the node, its content is selected as Control+A would: `selected`
/// says it is (for `<input>` and `<textarea>`, checked by the selection
/// range, or for `email` and `number` inputs, which have none, by the
/// document's selection showing the whole value; a `number` input whose
/// text is not a number says `false`). `focused` is its [`NODE_STATE`]
/// read again after that (`null` when it was not focused). `blocked`
/// names why a connected node is not ready for input (`disabled`,
/// `not_visible`, or with `checkMotion` `moving` while anything in the
/// document animates): then nothing is focused (`input/actionable.rs` waits).
///
/// Each helper is written into the function once (the browser is sent
/// the whole source with every call): 3.1 KB where it was 4.9 KB with
/// [`NODE_STATE`] and [`ACTIVE_ELEMENT`] spelled out twice each, which
/// took about 0.04 ms off the call (400 calls each, from a plain
/// DevTools client on the sign-in form).
pub fn focus_editable() -> String {
    format!(
        "function(selectAll, checkMotion) {{
  const read = {NODE_STATE};
  const deep = () => {ACTIVE_ELEMENT};
  const state = read.call(this);
  let focus = null, selected = false, blocked = null;
  if (state.connected) {{
    const off = (this.matches && this.matches(':disabled')) || (this.closest && this.closest('[aria-disabled=\"true\"]'));
    const shown = Array.from(this.getClientRects()).some(r => r.width > 0 && r.height > 0)
      && (!this.checkVisibility || this.checkVisibility({{visibilityProperty: true}}));
    const moving = checkMotion && ({ANIMATING})(this);
    blocked = off ? 'disabled' : !shown ? 'not_visible' : moving ? 'moving' : null;
  }}
  if (blocked === null && state.connected && state.editable) {{
    const before = deep();
    (this instanceof HTMLElement ? HTMLElement.prototype.focus : this.focus).call(this);
    const after = deep();
    focus = after === this ? 'self' : after !== before ? 'moved' : 'none';
    if (focus === 'self' && selectAll) selected = ({SELECT_CONTENT}).call(this);
  }}
  // As it stands once focused and selected (a focus handler may change it).
  const focused = focus === null ? null : read.call(this);
  {OBSERVE};
  return {{state, focus, selected, focused, blocked}};
}}",
            )
}

/// Select a focused editable element's whole content; whether it is.
const SELECT_CONTENT: &str = r#"function() {
  const control = this instanceof HTMLInputElement ? HTMLInputElement
    : this instanceof HTMLTextAreaElement ? HTMLTextAreaElement : null;
  if (control) {
    control.prototype.select.call(this);
    // `email` and `number` inputs have no selection range (null); the
    // document's selection then shows what is selected in them.
    if (this.selectionStart !== null) {
      return this.selectionStart === 0 && this.selectionEnd === this.value.length;
    }
    const shown = this.ownerDocument.getSelection();
    return !!shown && shown.toString() === this.value;
  }
  const selection = this.ownerDocument.getSelection();
  if (!selection) return false;
  const range = this.ownerDocument.createRange();
  range.selectNodeContents(this);
  selection.removeAllRanges();
  selection.addRange(range);
  return selection.rangeCount === 1;
}"#;

/// Scroll the node into view if needed, take the centre of its first
/// visible box and hit-test it there (main frame only: the coordinates are
/// the top-level viewport's). `null` when it has no visible box.
pub fn aim() -> String {
    format!(
        "function() {{
  if (this.scrollIntoViewIfNeeded) this.scrollIntoViewIfNeeded(true);
  else this.scrollIntoView({{block: 'center', inline: 'center'}});
  const r = Array.from(this.getClientRects()).find(r => r.width * r.height > 1);
  if (!r) return null;
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = ({HIT_TEST}).call(this, x, y);
  const part = typeof hit === 'string' ? hit : null;
  return {{x, y, covered: hit !== null && part === null, part, pointerups: {POINTERUPS}}};
}}"
    )
}
