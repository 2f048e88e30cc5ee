//! The Pilot window (spec BR-7): the browser (launched or the user's own)
//! shows which client controls a workspace's window without touching any page's
//! DOM. Each new window a workspace's managed tabs open in gets a tab of
//! the broker's own beside them, in the background: a `data:` page titled
//! with the client's name and the workspace. It lives as long as the workspace and
//! closes with it (`State::release_workspace`). It is marked in the
//! registry (`TargetState::pilot`), so it is never listed, announced,
//! taken or closed as an agent's tab.

use crate::broker::call::types::CallScope;
use crate::broker::connect::identity::client_name;
use crate::broker::Broker;
use crate::browser::connection::BrowserConn;

/// Most characters of a client name or label shown.
const MAX_NAME: usize = 80;

/// Open the workspace's Pilot tab beside `tab`, the first tab of a new
/// window, and close the one it had (its window
/// was left when its tabs closed). Best effort: a Pilot tab that cannot
/// be made, or that the browser put in another window, is not kept.
pub(super) async fn open_beside(broker: &Broker, scope: &CallScope, conn: &BrowserConn, tab: &str) {
    let Ok(title) = broker
        .state()
        .workspace(&scope.principal, &scope.workspace_id)
        .map(|ws| title(&ws.principal, ws.label.as_deref(), &ws.id))
    else {
        return;
    };
    let pilot = match conn.create_pilot_tab(&page_url(&title)).await {
        Ok(raw) => raw,
        Err(e) => {
            tracing::info!("no Pilot tab for a new window: {}", e.message);
            return;
        }
    };
    if window(conn, &pilot).await.is_none() || window(conn, &pilot).await != window(conn, tab).await
    {
        tracing::info!("the Pilot tab opened in another window; closed");
        let _ = conn.close_target(&pilot).await;
        return;
    }
    // In a user's browser the janitor closes it if the broker dies.
    if let Some(janitor) = &conn.janitor {
        janitor.track(&pilot);
    }
    let old = match broker
        .state()
        .workspace(&scope.principal, &scope.workspace_id)
    {
        Ok(ws) => ws.pilot.replace(pilot.clone()),
        Err(_) => Some(pilot),
    };
    if let Some(old) = old {
        let _ = conn.close_target(&old).await;
    }
}

async fn window(conn: &BrowserConn, raw: &str) -> Option<i64> {
    use chromiumoxide::cdp::browser_protocol::{browser, target};
    let find = browser::GetWindowForTargetParams {
        target_id: Some(target::TargetId::new(raw)),
    };
    let found = conn.cdp.send(&find, None).await.ok()?;
    Some(*found.window_id.inner())
}

/// `Browser Pilot: CLIENT (LABEL or workspace ID)`.
pub fn title(principal: &str, label: Option<&str>, workspace_id: &str) -> String {
    let cut = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_control())
            .take(MAX_NAME)
            .collect()
    };
    let holds = label.map_or_else(|| workspace_id.to_string(), cut);
    format!("Browser Pilot: {} ({holds})", cut(client_name(principal)))
}

/// The Pilot page: its title, and a line saying the tabs of this window
/// are the client's.
pub fn page_url(title: &str) -> String {
    let text = escape(title);
    let html = format!(
        "<!DOCTYPE html><meta charset=utf-8><title>{text}</title>\
         <body style=\"font:16px sans-serif;margin:2em\"><h1>{text}</h1>\
         <p>The other tabs of this window are controlled by this client through Browser Pilot.</p>"
    );
    let mut url = String::from("data:text/html;charset=utf-8,");
    for b in html.bytes() {
        if b.is_ascii_alphanumeric() || b" -_.:()=/;,".contains(&b) {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_names_the_client_and_what_it_holds() {
        assert_eq!(
            title("claude-code#c12", Some("fix login"), "ws_1"),
            "Browser Pilot: claude-code (fix login)"
        );
        assert_eq!(
            title("bp-cli#c1", None, "ws_9"),
            "Browser Pilot: bp-cli (ws_9)"
        );
        let long = "x".repeat(500);
        assert!(title(&long, Some("a\u{7}b"), "w").len() < 200);
    }

    #[test]
    fn the_page_is_an_escaped_data_url() {
        let url = page_url("<b>&\"x\"</b> #1");
        assert!(url.starts_with("data:text/html;charset=utf-8,"));
        assert!(!url[5..].contains('<') && !url.contains('#') && !url.contains('"'));
        assert!(url.contains("%26lt;b%26gt;"), "{url}");
    }
}
