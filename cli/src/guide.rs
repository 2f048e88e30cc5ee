//! `bp help agents`: the agents guide (`docs/agents.md`, built into the
//! executable) cut to the tools the broker's live policy leaves.
//!
//! A section of the guide that needs some tools says so on the line after
//! its heading, as an HTML comment a Markdown reader does not show:
//! `<!-- needs: browser.dialogs.list browser.dialogs.respond -->`. The
//! section is kept when the broker offers at least one of them. The same
//! marker anywhere else covers only the block after it: a fenced code
//! block, a list item, or a paragraph.

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

/// `guide` without the sections and blocks none of whose tools are in
/// `tools`, and without the markers. `None` keeps everything.
pub fn for_tools(guide: &str, tools: Option<&[String]>) -> String {
    let offered = |needed: &[&str]| {
        tools.is_none_or(|have| needed.iter().any(|n| have.iter().any(|h| h == n)))
    };
    let lines: Vec<&str> = guide.lines().collect();
    let mut out = String::new();
    let mut skipping = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with("## ") {
            skipping = match lines.get(i + 1).and_then(|next| needs(next)) {
                Some(needed) => {
                    i += 1;
                    !offered(&needed)
                }
                None => false,
            };
        } else if line.starts_with("# ") {
            skipping = false;
        } else if let Some(needed) = needs(line) {
            let end = block_end(&lines, i + 1);
            if !skipping && offered(&needed) {
                for kept in &lines[i + 1..end] {
                    out.push_str(kept);
                    out.push('\n');
                }
            } else if lines.get(end).is_some_and(|l| l.trim().is_empty())
                && (out.is_empty() || out.ends_with("\n\n"))
            {
                // The blank line after a dropped block would double the one before it.
                i = end + 1;
                continue;
            }
            i = end;
            continue;
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
        i += 1;
    }
    out
}

/// Where the block a marker covers ends (exclusive): a fenced code block
/// through its closing fence, or else the lines up to a blank line, the
/// next list item, heading, fence or marker.
fn block_end(lines: &[&str], start: usize) -> usize {
    let Some(first) = lines.get(start) else {
        return start;
    };
    if first.trim_start().starts_with("```") {
        return lines[start + 1..]
            .iter()
            .position(|l| l.trim_start().starts_with("```"))
            .map_or(lines.len(), |p| start + 1 + p + 1);
    }
    let ends = |l: &&str| {
        l.trim().is_empty()
            || l.starts_with("- ")
            || l.starts_with('#')
            || l.trim_start().starts_with("```")
            || needs(l).is_some()
    };
    lines[start + 1..]
        .iter()
        .position(ends)
        .map_or(lines.len(), |p| start + 1 + p)
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
    fn a_block_goes_with_its_tool_and_the_rest_of_the_section_stays() {
        let guide = "# G\n## Tabs\n<!-- needs: browser.tabs.list -->\nlist them\n\n<!-- needs: browser.tabs.close -->\n```\n$ bp close --all\n```\n\n- keep\n<!-- needs: browser.pdf -->\n- `bp pdf PATH`\n  wrapped\n- also kept\n\nend\n";
        let have = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let out = for_tools(guide, Some(&have(&["browser.tabs.list"])));
        assert_eq!(
            out,
            "# G\n## Tabs\nlist them\n\n- keep\n- also kept\n\nend\n"
        );
        let all = have(&["browser.tabs.list", "browser.tabs.close", "browser.pdf"]);
        let out = for_tools(guide, Some(&all));
        assert_eq!(
            out,
            "# G\n## Tabs\nlist them\n\n```\n$ bp close --all\n```\n\n- keep\n- `bp pdf PATH`\n  wrapped\n- also kept\n\nend\n"
        );
        assert_eq!(for_tools(guide, None), out);
        // A dropped section drops its blocks too.
        let out = for_tools(guide, Some(&have(&["browser.pdf"])));
        assert_eq!(out, "# G\n");
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
