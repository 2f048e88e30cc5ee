//! A profile's `DevToolsActivePort` file: the port on line 1, the browser
//! WebSocket path (`/devtools/browser/<uuid>`) on line 2.

use std::fs;
use std::io::Read;
use std::path::Path;

/// The file's name inside a user-data dir.
pub const FILE_NAME: &str = "DevToolsActivePort";

/// What a `DevToolsActivePort` file says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortFile {
    pub port: u16,
    /// `None` when line 2 is missing or does not look like a DevTools path.
    pub ws_path: Option<String>,
}

/// Parse the file's text; `None` for port 0 or junk.
pub fn parse(text: &str) -> Option<PortFile> {
    let mut lines = text.lines().map(str::trim);
    let port: u16 = lines.next()?.parse().ok()?;
    if port == 0 {
        return None;
    }
    let ws_path = lines
        .next()
        .filter(|p| p.starts_with("/devtools/") && !p.contains(char::is_whitespace))
        .map(str::to_string);
    Some(PortFile { port, ws_path })
}

/// Read `<user_data_dir>/DevToolsActivePort` (at most 4 KiB).
pub fn read(user_data_dir: &Path) -> Option<PortFile> {
    let file = fs::File::open(user_data_dir.join(FILE_NAME)).ok()?;
    let mut text = String::new();
    file.take(4096).read_to_string(&mut text).ok()?;
    parse(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(
            parse("9333\n/devtools/browser/5f1c-ab \t\n"),
            Some(PortFile {
                port: 9333,
                ws_path: Some("/devtools/browser/5f1c-ab".into())
            })
        );
        assert_eq!(
            parse("9333\nhello world\n"),
            Some(PortFile {
                port: 9333,
                ws_path: None
            })
        );
        assert_eq!(
            parse("38421  \r\n/devtools/browser/0b6c5e7d-1f0e-4f4a-9d7e-2a1c3b4d5e6f \n"),
            Some(PortFile {
                port: 38421,
                ws_path: Some("/devtools/browser/0b6c5e7d-1f0e-4f4a-9d7e-2a1c3b4d5e6f".into())
            })
        );
        assert_eq!(
            parse("9222"),
            Some(PortFile {
                port: 9222,
                ws_path: None
            })
        );
        assert_eq!(parse("0\n/devtools/browser/x\n"), None);
        assert_eq!(parse("junk\n"), None);
        assert_eq!(parse("70000\n"), None);
        assert_eq!(parse(""), None);
    }
}
