//! Console signals: a message of a tab goes into the journal of the
//! workspace that controls the tab (none controls it: nobody keeps it),
//! and out as a `console.message` or `page.error` event, gated per
//! workspace (switchable, at most 20 a second).

use crate::broker::Broker;
use crate::store::console::Message;
use serde_json::json;

/// Handle one console message of `raw`.
pub fn handle(broker: &Broker, raw: &str, message: Message) {
    let owner = {
        let mut st = broker.state();
        st.controller_of(raw).and_then(|(_, ws)| {
            let public = st.workspaces.get_mut(ws.as_str())?.public_id(raw);
            Some((ws, public))
        })
    };
    let Some((ws, public)) = owner else {
        return;
    };
    let entry = broker.console.record(&ws, raw, &public, message);
    let Some(dropped) = broker.console.event_slot(&ws) else {
        return;
    };
    let m = &entry.message;
    let kind = if m.source == "exception" {
        "page.error"
    } else {
        "console.message"
    };
    let mut payload = json!({"seq": entry.seq, "source": m.source, "level": m.level,
        "text": m.text, "url": m.url, "line": m.line});
    if dropped > 0 {
        payload["dropped"] = json!(dropped);
    }
    broker.state().publish(&ws, kind, None, Some(raw), payload);
}
