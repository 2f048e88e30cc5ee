//! The page-side probes of a hover and a drag, and the pure logic over
//! what they read. The probes read; they never change the page.

use serde_json::Value;

/// Elements of the document a visibility probe looks at, at most: the
/// first `HEAD` and the last `TAIL` (menus and popovers rendered in a
/// portal at the end of `body` are there).
const HEAD: u32 = 4_000;
const TAIL: u32 = 1_000;
/// Names of appeared elements returned, at most, and their length.
pub const NAMES: usize = 5;
const NAME_CHARS: usize = 60;

/// Shared helpers of the probes: whether an element is shown, its name,
/// its role. Spliced into each probe.
const HELPERS: &str = r#"
  const shown = el => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    return el.checkVisibility ? el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}) : true;
  };
  const nameOf = el => String(el.getAttribute('aria-label') || el.innerText || el.value || el.title || '')
    .replace(/\s+/g, ' ').trim().slice(0, NAME_CHARS);
  const tagRoles = {a: 'link', button: 'button', select: 'combobox', textarea: 'textbox', li: 'listitem',
    ul: 'list', ol: 'list', nav: 'navigation', img: 'img', summary: 'button', dialog: 'dialog'};
  const roleOf = el => {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(' ')[0];
    const tag = el.tagName.toLowerCase();
    if (tag === 'input') {
      const t = (el.type || 'text').toLowerCase();
      return t === 'range' ? 'slider' : (t === 'checkbox' || t === 'radio') ? t : 'textbox';
    }
    if (/^h[1-6]$/.test(tag)) return 'heading';
    return tagRoles[tag] || 'generic';
  };
  const interactive = 'a[href],button,input,select,textarea,summary,[role],[tabindex]';
  const scan = f => {
    const all = document.body ? document.body.getElementsByTagName('*') : [];
    const n = all.length, head = Math.min(n, HEAD);
    for (let i = 0; i < head; i++) f(all[i]);
    for (let i = Math.max(head, n - TAIL); i < n; i++) f(all[i]);
  };
"#;

fn helpers() -> String {
    HELPERS
        .replace("NAME_CHARS", &NAME_CHARS.to_string())
        .replace("HEAD", &HEAD.to_string())
        .replace("TAIL", &TAIL.to_string())
}

/// The set of the document's shown elements, kept as a remote object for
/// [`appeared`] to compare against.
pub fn visible_set() -> String {
    format!(
        r#"(() => {{ {h}
  const seen = new Set();
  scan(el => {{ if (shown(el)) seen.add(el); }});
  return seen;
}})()"#,
        h = helpers()
    )
}

/// With `this` the set [`visible_set`] kept: how many elements are shown
/// now that were not, and the names of a few (innermost interactive ones
/// first, then text leaves).
pub fn appeared() -> String {
    format!(
        r#"function() {{ {h}
  const before = this;
  const fresh = [];
  scan(el => {{ if (!before.has(el) && shown(el)) fresh.push(el); }});
  const leaf = el => el.matches(interactive) && !el.querySelector(interactive);
  const order = fresh.filter(leaf).concat(fresh.filter(el => !leaf(el) && el.children.length === 0));
  const names = [];
  for (const el of order) {{
    const n = nameOf(el);
    if (n && !names.includes(n)) names.push(n);
    if (names.length >= {NAMES}) break;
  }}
  return {{count: fresh.length, names}};
}}"#,
        h = helpers()
    )
}

/// `aria-expanded` of `this`, or of its nearest ancestor with one, or of
/// its first descendant with one unless it is the page's body (`null`
/// when none).
pub const NODE_EXPANDED: &str = r#"function() {
  const page = this === document.body || this === document.documentElement;
  const e = this.closest && (this.closest('[aria-expanded]') || (page ? null : this.querySelector('[aria-expanded]')));
  return e ? e.getAttribute('aria-expanded') : null;
}"#;

/// What is at viewport point (x, y) of the main frame: the nearest
/// element with a role or an interactive tag (through open shadow roots),
/// its name (none for a container) and tag, and `aria-expanded` as
/// [`NODE_EXPANDED`] reads it.
pub fn at_point(x: f64, y: f64) -> String {
    format!(
        r#"(() => {{ {h}
  let el = document.elementFromPoint({x}, {y});
  while (el && el.shadowRoot) {{
    const inner = el.shadowRoot.elementFromPoint({x}, {y});
    if (!inner || inner === el) break;
    el = inner;
  }}
  if (!el) return null;
  let named = el;
  while (named.parentElement && !named.matches(interactive) && named !== document.body) named = named.parentElement;
  if (!named.matches(interactive)) named = el;
  // A container's text is not its name: only an interactive element or
  // a text leaf is named.
  const name = named.matches(interactive) || named.children.length === 0 ? nameOf(named) : '';
  const page = el === document.body || el === document.documentElement;
  const e = el.closest('[aria-expanded]') || (page ? null : el.querySelector('[aria-expanded]'));
  return {{role: roleOf(named), name, tag: named.tagName.toLowerCase(),
    expanded: e ? e.getAttribute('aria-expanded') : null}};
}})()"#,
        h = helpers()
    )
}

/// The viewport's size in CSS pixels.
pub const VIEWPORT: &str = "[window.innerWidth, window.innerHeight]";

/// The state of a drag's source (`this`): its box, its place among its
/// siblings (index, and a key of the siblings' order), its parent, and its
/// value (a range input's or `aria-valuenow`).
pub const SOURCE: &str = r#"function() {
  const el = this;
  const r = el.getBoundingClientRect();
  const p = el.parentElement;
  const key = e => e.tagName + ':' + (e.id || '') + ':' + String(e.textContent || '').trim().slice(0, 40);
  const siblings = p ? Array.from(p.children).slice(0, 200).map(key).join('|') : '';
  const index = p ? Array.prototype.indexOf.call(p.children, el) : -1;
  const parent = p ? key(p).slice(0, 80) + '#' + (p.parentElement ? Array.prototype.indexOf.call(p.parentElement.children, p) : -1) : '';
  const slider = el.querySelector ? el.querySelector('input[type=range],[role=slider]') : null;
  const v = el.getAttribute('aria-valuenow') ?? ((el.type === 'range') ? el.value : null)
    ?? (slider ? (slider.getAttribute('aria-valuenow') ?? slider.value ?? null) : null);
  return {x: r.x, y: r.y, index, siblings, parent, connected: el.isConnected,
    value: v === null || v === undefined ? null : String(v)};
}"#;

/// A key of the content of a drop target (`this`): its element count and
/// a hash of its text.
pub const CONTENT: &str = r#"function() {
  const t = String(this.textContent || '');
  let h = 2166136261;
  for (let i = 0; i < t.length; i++) { h ^= t.charCodeAt(i); h = Math.imul(h, 16777619); }
  return this.getElementsByTagName('*').length + ':' + t.length + ':' + (h >>> 0);
}"#;

/// A drag source as [`SOURCE`] read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub x: f64,
    pub y: f64,
    pub index: i64,
    pub siblings: String,
    pub parent: String,
    pub connected: bool,
    pub value: Option<String>,
}

impl Source {
    /// Parse a probe's reply; `None` when it is not one.
    pub fn from_value(v: &Value) -> Option<Self> {
        Some(Self {
            x: v["x"].as_f64()?,
            y: v["y"].as_f64()?,
            index: v["index"].as_i64()?,
            siblings: v["siblings"].as_str()?.to_string(),
            parent: v["parent"].as_str()?.to_string(),
            connected: v["connected"].as_bool()?,
            value: v["value"].as_str().map(str::to_string),
        })
    }
}

/// What changed between two reads of a drag's source.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Change {
    pub moved: bool,
    pub order_changed: bool,
    pub value_changed: bool,
}

impl Change {
    pub fn between(before: &Source, after: &Source) -> Self {
        if !after.connected {
            // Replaced by the page: what took its place is not known.
            return Self::default();
        }
        Self {
            moved: (after.x - before.x).abs() > 1.0 || (after.y - before.y).abs() > 1.0,
            order_changed: after.index != before.index
                || after.siblings != before.siblings
                || after.parent != before.parent,
            value_changed: after.value != before.value,
        }
    }

    pub fn any(&self) -> bool {
        self.moved || self.order_changed || self.value_changed
    }
}

/// The names an [`appeared`] read gives, cleaned of invisible characters
/// (page data), at most [`NAMES`].
pub fn names(v: &Value) -> Vec<String> {
    v["names"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(crate::sanitize::invisible::clean)
        .filter(|n| !n.is_empty())
        .take(NAMES)
        .collect()
}
