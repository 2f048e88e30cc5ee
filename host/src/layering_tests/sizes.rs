//! The host stays small in its parts, so that a capability added in its
//! own folder does not grow a file everyone edits: no source file over
//! 500 lines, no function over 80, no folder of more than 15 files (its
//! sub-folders are not counted: they are how a folder stays small).

use super::reader::strip;
use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 500;
const MAX_FN_LINES: usize = 80;
const MAX_DIR_FILES: usize = 15;

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The functions with a body in `code` (comments and strings already
/// blanked): name and length in lines, from the `fn` line to the line of
/// its closing brace.
fn function_lengths(code: &str) -> Vec<(String, usize)> {
    let b: Vec<char> = code.chars().collect();
    let line_at = |i: usize| b[..i].iter().filter(|c| **c == '\n').count();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 3 < b.len() {
        let starts =
            b[i] == 'f' && b[i + 1] == 'n' && b[i + 2] == ' ' && (i == 0 || !is_ident(b[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let name: String = b[i + 3..].iter().take_while(|c| is_ident(**c)).collect();
        let Some(open) = b[i..].iter().position(|c| *c == '{' || *c == ';') else {
            break;
        };
        let open = i + open;
        if b[open] == ';' {
            i = open;
            continue;
        }
        let mut depth = 0usize;
        let mut j = open;
        while j < b.len() {
            match b[j] {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        out.push((name, line_at(j.min(b.len())) - line_at(i) + 1));
        i += 3;
    }
    out
}

/// Every file and folder under `root` that is over its limit.
fn oversized(root: &Path) -> Vec<String> {
    let mut bad = Vec::new();
    let mut stack: Vec<PathBuf> = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        let files = entries.iter().filter(|p| p.is_file()).count();
        if files > MAX_DIR_FILES {
            bad.push(format!("    {} has {files} files", dir.display()));
        }
        for path in entries {
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let src = std::fs::read_to_string(&path).unwrap_or_default();
            let lines = src.lines().count();
            if lines > MAX_FILE_LINES {
                bad.push(format!("    {} has {lines} lines", path.display()));
            }
            for (name, n) in function_lengths(&strip(&src)) {
                if n > MAX_FN_LINES {
                    bad.push(format!("    {}: fn {name} has {n} lines", path.display()));
                }
            }
        }
    }
    bad.sort();
    bad
}

#[test]
fn no_file_function_or_folder_of_the_host_is_over_its_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = oversized(&root);
    assert!(
        bad.is_empty(),
        "over the limits (files {MAX_FILE_LINES} lines, functions {MAX_FN_LINES}, folders {MAX_DIR_FILES} files):\n{}",
        bad.join("\n")
    );
}

#[test]
fn a_long_function_is_measured_from_fn_to_its_closing_brace() {
    let body = "    let x = 1;\n".repeat(81);
    let code = format!(
        "fn short() -> u8 {{ 1 }}\nfn declared();\npub async fn long(a: u8) {{\n{body}}}\n"
    );
    let lengths = function_lengths(&strip(&code));
    assert_eq!(
        lengths,
        vec![("short".to_string(), 1), ("long".to_string(), 83)]
    );
    // Braces in strings and comments do not count.
    let code = "fn f() {\n    let s = \"}\"; // }\n}\n";
    assert_eq!(function_lengths(&strip(code)), vec![("f".to_string(), 3)]);
}
