//! `bp help agents`: the agents guide (`docs/agents.md`, built into the
//! executable) cut to the tools the broker's live policy leaves.
//!
//! A section of the guide that needs some tools says so on the line after
//! its heading, as an HTML comment a Markdown reader does not show:
//! `<!-- needs: browser.dialogs.list browser.dialogs.respond -->`. The
//! section is kept when the broker offers at least one of them.

use crate::session::Session;
use serde_json::json;

/// The guide as written, every section in it.
const AGENTS_GUIDE: &str = include_str!("../../docs/agents.md");

/// The marker that opens a section's tool list.
const NEEDS: &str = "<!-- needs:";

/// The guide for the broker this command reaches (started if need be).
/// When it cannot be asked, the whole guide, with a note on stderr.
pub async fn live() -> String {
    match offered().await {
        Ok(tools) => for_tools(AGENTS_GUIDE, Some(&tools)),
        Err(e) => {
            eprintln!(
                "browser-pilot: the broker did not list its tools ({e}); the whole guide follows"
            );
            for_tools(AGENTS_GUIDE, None)
        }
    }
}

/// The names of the tools the broker offers.
async fn offered() -> browser_pilot_host::BpResult<Vec<String>> {
    let listed = Session::open()
        .await?
        .request("tools/list", json!({}))
        .await?;
    Ok(listed["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect())
}

/// `guide` without the sections none of whose tools are in `tools`, and
/// without the markers. `None` keeps every section.
pub fn for_tools(guide: &str, tools: Option<&[String]>) -> String {
    let mut out = String::new();
    let mut skipping = false;
    let mut lines = guide.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("## ") {
            skipping = match lines.peek().and_then(|next| needs(next)) {
                Some(needed) => {
                    lines.next();
                    tools.is_some_and(|have| !needed.iter().any(|n| have.iter().any(|h| h == n)))
                }
                None => false,
            };
        } else if line.starts_with("# ") {
            skipping = false;
        }
        if !skipping && needs(line).is_none() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The tool names a marker line lists, if it is one.
fn needs(line: &str) -> Option<Vec<&str>> {
    let rest = line.trim().strip_prefix(NEEDS)?.strip_suffix("-->")?;
    Some(rest.split_whitespace().collect())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const GUIDE: &str = "# G\nintro\n## Dialogs\n<!-- needs: browser.dialogs.list -->\nanswer them\n## Waiting\npoll\n";

    #[test]
    fn a_section_goes_when_none_of_its_tools_is_offered() {
        let out = for_tools(GUIDE, Some(&["browser.observe".to_string()]));
        assert_eq!(out, "# G\nintro\n## Waiting\npoll\n");
    }

    #[test]
    fn a_section_stays_without_its_marker_when_a_tool_is_offered() {
        let out = for_tools(GUIDE, Some(&["browser.dialogs.list".to_string()]));
        assert_eq!(
            out,
            "# G\nintro\n## Dialogs\nanswer them\n## Waiting\npoll\n"
        );
        assert_eq!(for_tools(GUIDE, None), out);
    }

    #[test]
    fn every_marker_in_the_real_guide_names_known_tools() {
        for line in AGENTS_GUIDE.lines() {
            if let Some(names) = needs(line) {
                assert!(!names.is_empty(), "empty marker: {line}");
                assert!(names.iter().all(|n| n.starts_with("browser.")), "{line}");
            }
        }
        assert!(AGENTS_GUIDE.contains(NEEDS), "the guide has no markers");
    }
}
