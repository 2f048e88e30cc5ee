//! Web storage through the browser's `DOMStorage` domain, on any page
//! session: what the tab's storage operations (`call/storage.rs`) and the
//! saved state (`workspace/state.rs`) share. The browser answers for a
//! storage area only while the session shows a document of that origin.

use crate::cdp::Cdp;
use crate::error::{BpError, BpResult};
use chromiumoxide::cdp::browser_protocol::dom_storage::{
    ClearParams, GetDomStorageItemsParams, RemoveDomStorageItemParams, SetDomStorageItemParams,
    StorageId,
};
use serde_json::Value;

/// The serialized origin of `url` (`https://a.test:8443`), or `None` for
/// an opaque one (`about:blank`, `data:`, `file:`), which has no storage
/// of its own to name.
pub fn origin_of(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    let origin = parsed.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// The refusal for a document with an opaque origin.
pub fn opaque(url: &str) -> BpError {
    let scheme = url.split(':').next().unwrap_or_default();
    BpError::invalid(format!(
        "the tab shows a document with an opaque origin (a `{scheme}:` URL), which has no web storage; navigate to an http(s) page first"
    ))
}

/// The `DOMStorage.StorageId` of `origin`'s local or session storage.
pub fn storage_id(origin: &str, local: bool) -> StorageId {
    let mut id = StorageId::new(local);
    id.security_origin = Some(origin.to_string());
    id
}

/// The `[key, value]` pairs of a `getDOMStorageItems` reply, in key order.
pub fn entries(reply: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = reply["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| Some((e[0].as_str()?.to_string(), e[1].as_str()?.to_string())))
        .collect();
    out.sort();
    out
}

/// Every item of `origin`'s storage as `session` sees it.
pub async fn read(
    cdp: &Cdp,
    session: &str,
    origin: &str,
    local: bool,
) -> BpResult<Vec<(String, String)>> {
    let items = GetDomStorageItemsParams::new(storage_id(origin, local));
    // The page's own data: read as JSON, a malformed item is left out.
    let reply = cdp.send_raw(&items, Some(session)).await?;
    Ok(entries(&reply))
}

/// Set `key` to `value` in `origin`'s storage through `session`.
pub async fn set(
    cdp: &Cdp,
    session: &str,
    origin: &str,
    local: bool,
    key: &str,
    value: &str,
) -> BpResult<()> {
    let item = SetDomStorageItemParams::new(storage_id(origin, local), key, value);
    cdp.send(&item, Some(session)).await.map(drop)
}

/// Remove `key`, or with none every key, from `origin`'s storage.
pub async fn remove(
    cdp: &Cdp,
    session: &str,
    origin: &str,
    local: bool,
    key: Option<&str>,
) -> BpResult<()> {
    let id = storage_id(origin, local);
    match key {
        Some(k) => {
            let item = RemoveDomStorageItemParams::new(id, k);
            cdp.send(&item, Some(session)).await.map(drop)
        }
        None => cdp
            .send(&ClearParams::new(id), Some(session))
            .await
            .map(drop),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_storage_id_is_sent_as_the_string_form_was() {
        assert_eq!(
            serde_json::to_value(storage_id("http://127.0.0.1:8080", true)).unwrap(),
            json!({"securityOrigin": "http://127.0.0.1:8080", "isLocalStorage": true})
        );
    }

    #[test]
    fn only_tuple_origins_have_storage() {
        assert_eq!(
            origin_of("http://127.0.0.1:8080/a/b?c#d").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(
            origin_of("https://a.test/").as_deref(),
            Some("https://a.test")
        );
        for opaque in [
            "about:blank",
            "data:text/html,x",
            "file:///tmp/x.html",
            "nonsense",
        ] {
            assert_eq!(origin_of(opaque), None, "{opaque}");
        }
        assert!(opaque("data:text/html,x").message.contains("`data:`"));
    }

    #[test]
    fn entries_are_pairs_in_key_order() {
        let reply = json!({"entries": [["b", "2"], ["a", "1"], ["bad"], [1, "x"]]});
        assert_eq!(
            entries(&reply),
            vec![("a".into(), "1".into()), ("b".into(), "2".into())]
        );
    }
}
