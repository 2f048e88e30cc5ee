//! What is at a point of the viewport, for a click aimed by coordinates
//! (a vision model's): the element found there, named for the evidence.

use crate::browser::call::TargetCall;
use crate::browser::types::{ElementAt, Point};
use crate::error::{BpError, BpResult, Code};
use serde_json::json;

/// Most characters of the name read back.
const NAME_CHARS: u32 = 80;

/// `null` when (x, y) is outside the viewport; else the deepest element
/// there (through open shadow roots) as `{tag, role, name}`: its explicit
/// role or a role its tag implies, and a short name (label, text, value).
fn at_js(at: Point) -> String {
    format!(
        "(() => {{
  const x = {x}, y = {y};
  if (!(x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)) return null;
  let el = document.elementFromPoint(x, y);
  while (el && el.shadowRoot) {{
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }}
  if (!el) return {{tag: '', role: '', name: ''}};
  const named = el.closest('a[href],button,input,select,textarea,summary,label,[role]') || el;
  const tag = named.tagName.toLowerCase();
  const implied = {{a: 'link', button: 'button', select: 'combobox', textarea: 'textbox', summary: 'button', img: 'img'}};
  const type = tag === 'input' ? (named.type || 'text') : '';
  const role = named.getAttribute('role') || implied[tag]
    || (type === 'checkbox' || type === 'radio' ? type : type === 'submit' || type === 'button' ? 'button' : type ? 'textbox' : '');
  const text = named.getAttribute('aria-label') || named.getAttribute('alt') || named.getAttribute('title')
    || (type && type !== 'password' ? named.value : '') || named.innerText || named.textContent || '';
  return {{tag, role, name: text.replace(/\\s+/g, ' ').trim().slice(0, {max})}};
}})()",
        x = at.x,
        y = at.y,
        max = NAME_CHARS,
    )
}

impl TargetCall {
    /// The element at `at` (top-level viewport, CSS pixels). A point
    /// outside the viewport is `invalid_argument`.
    pub async fn element_at(&mut self, at: Point) -> BpResult<ElementAt> {
        self.check()?;
        if !at.x.is_finite() || !at.y.is_finite() {
            return Err(BpError::invalid("`at` must be finite numbers"));
        }
        let v = self.evaluate_value(&at_js(at)).await?;
        if v.is_null() {
            return Err(
                BpError::new(Code::InvalidArgument, "the point is outside the viewport")
                    .with_context(json!({"reason": "outside_viewport", "x": at.x, "y": at.y})),
            );
        }
        let field = |k: &str| crate::sanitize::invisible::clean(v[k].as_str().unwrap_or_default());
        Ok(ElementAt {
            role: field("role"),
            name: field("name"),
            tag: field("tag"),
        })
    }
}
