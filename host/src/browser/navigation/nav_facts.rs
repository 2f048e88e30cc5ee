//! What a finished navigation reports: the document's URL, title and
//! HTTP status.
//!
//! Right after the load event the renderer is busy with the page's first
//! frame, and a page-side read waits behind that work (5 to 7 ms on the
//! form fixture here). The browser process knows the answer already: the
//! current history entry holds the URL (with any `replaceState` during
//! load) and the title the page set (empty when it set none; the entry's
//! title is updated before the load event is passed on), and the main
//! document's response event gave its status. So the browser is asked,
//! and the page is read only when the browser cannot say: the tab
//! crashed, the history could not be read, the title reached the
//! browser's cap (4096 UTF-16 units), another document committed
//! while it was read, or an http(s) document's response was not seen
//! (restored from the back/forward cache, or a tab without the Network
//! domain).

use crate::browser::call::TargetCall;
use crate::browser::js;
use crate::browser::types::NavResult;
use chromiumoxide::cdp::browser_protocol::page::GetNavigationHistoryParams;
use serde_json::Value;

/// Chromium's cap on the title it keeps in a history entry (`kMaxTitleChars`).
const MAX_HISTORY_TITLE: usize = 4096;

impl TargetCall {
    /// The navigation's result, once its document has loaded.
    pub(in crate::browser) async fn nav_result(&self) -> NavResult {
        if let Some(done) = self.nav_result_from_browser().await {
            return done;
        }
        let facts = self
            .evaluate_value(js::PAGE_FACTS)
            .await
            .unwrap_or(Value::Null);
        NavResult {
            url: crate::sanitize::redact::url(facts[0].as_str().unwrap_or_default()),
            title: facts[1].as_str().unwrap_or_default().to_string(),
            status: facts[2].as_u64().and_then(|s| u16::try_from(s).ok()),
        }
    }

    /// The result from the browser process alone, if it can give all of
    /// it. `Page.getNavigationHistory` is answered by the browser, also
    /// while a dialog holds the page.
    async fn nav_result_from_browser(&self) -> Option<NavResult> {
        if self.crashed_since_start() {
            return None;
        }
        // The entry and the status must be the same document's: a page
        // that moves on at once (a redirect in `onload`) may commit its
        // next document while the browser is asked.
        let (generation, loader, ..) = self.doc();
        let history = self
            .cdp
            .send(&GetNavigationHistoryParams::default(), Some(&self.session))
            .await
            .ok()?;
        let index = usize::try_from(history.current_index).ok()?;
        let entry = history.entries.get(index)?;
        let url = entry.url.as_str();
        let title = entry.title.as_str();
        // The browser keeps at most 4096 UTF-16 units of a title; a longer
        // one is read whole from the page.
        if title.encode_utf16().count() >= MAX_HISTORY_TITLE {
            return None;
        }
        let http = url.starts_with("http://") || url.starts_with("https://");
        // As the page's own navigation timing would say: a status only for
        // an HTTP document, the one whose response this tab saw.
        let status = self
            .registry
            .with(&self.raw_id, |t| match (&t.doc_response, &t.loader) {
                (Some((seen, code)), Some(loader)) if seen == loader => Some(*code),
                _ => None,
            })
            .flatten();
        let (now, now_loader, ..) = self.doc();
        if (http && status.is_none()) || now != generation || now_loader != loader {
            return None;
        }
        Some(NavResult {
            url: crate::sanitize::redact::url(url),
            title: title.to_string(),
            status: status.filter(|_| http),
        })
    }
}
