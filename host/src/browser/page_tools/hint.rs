//! The `page_tools` observation hint: how many tools the observed tab's
//! frames declare that this caller may call, by effect class, and how many
//! it may not. Counts only: no names, no descriptions (page text never
//! goes into a hint).

use crate::browser::caller::PageToolAccess;
use crate::browser::page_tools::Effect;
use crate::browser::registry::Registry;
use serde_json::{json, Value};

/// The hint for tab `raw`, or `None` when it declares no tools.
pub fn page_tools_hint(registry: &Registry, raw: &str, access: PageToolAccess) -> Option<Value> {
    let (_, declared) = registry.page_tools(raw);
    if declared.is_empty() {
        return None;
    }
    let reported = registry.page_tool_path().reports_annotations();
    Some(hint(
        declared
            .iter()
            .map(|t| Effect::of(&t.annotations, reported)),
        access,
    ))
}

fn hint(effects: impl Iterator<Item = Effect>, access: PageToolAccess) -> Value {
    let (mut read, mut write, mut consequential, mut unknown, mut hidden) = (0, 0, 0, 0, 0);
    for effect in effects {
        if access.admits(effect).is_err() {
            hidden += 1;
            continue;
        }
        match effect {
            Effect::Read => read += 1,
            Effect::Write => write += 1,
            Effect::Consequential => consequential += 1,
            Effect::Unknown => unknown += 1,
        }
    }
    let count = read + write + consequential + unknown;
    json!({"code": "page_tools", "source": "observation", "confidence": "high",
           "recommendedAction": "browser.page_tools.list", "count": count,
           "effects": {"read": read, "write": write, "consequential": consequential, "unknown": unknown},
           "hidden": hidden})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browser::caller::PageToolLevel;

    #[test]
    fn the_hint_counts_what_the_caller_may_call_by_effect() {
        let access = PageToolAccess {
            level: PageToolLevel::Write,
            consequential_granted: false,
        };
        let effects = [
            Effect::Read,
            Effect::Write,
            Effect::Write,
            Effect::Consequential,
        ];
        let h = hint(effects.into_iter(), access);
        assert_eq!(h["count"], 3);
        assert_eq!(
            h["effects"],
            json!({"read": 1, "write": 2, "consequential": 0, "unknown": 0})
        );
        assert_eq!(h["hidden"], 1);
        let all = PageToolAccess {
            level: PageToolLevel::All,
            consequential_granted: true,
        };
        let h = hint(effects.into_iter(), all);
        assert_eq!(
            (h["count"].as_u64(), h["hidden"].as_u64()),
            (Some(4), Some(0))
        );
        assert_eq!(h["effects"]["consequential"], 1);
    }
}
