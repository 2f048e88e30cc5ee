//! Page reads of a [`TargetCall`]: the page's URL and title, its
//! document state, a node's state, and text.

use crate::browser::call::{as_str, node_state, TargetCall};
use crate::browser::js;
use crate::browser::types::{NodeHandle, NodeState, PageInfo, PageText};
use crate::error::BpResult;
use serde_json::json;

impl TargetCall {
    pub async fn current_page(&self) -> BpResult<PageInfo> {
        self.check()?;
        let (_, _, dialog_open, _) = self.doc();
        let (mut url, mut title) = self
            .registry
            .with(&self.raw_id, |t| (t.url.clone(), t.title.clone()))
            .unwrap_or_default();
        // While a dialog is open the page cannot run script; use what the
        // registry last saw.
        if !dialog_open {
            if let Ok(facts) = self.evaluate_value(js::PAGE_FACTS).await {
                url = crate::sanitize::redact::url(&as_str(&facts[0]));
                title = as_str(&facts[1]);
            }
        }
        // The document generation as of the reply: a document committed
        // while the read was in flight is counted (its event came first),
        // so facts read from a new document never pass as the old one's.
        let doc_gen = self.doc().0;
        Ok(PageInfo {
            url,
            title,
            document_generation: doc_gen,
            dialog_open,
        })
    }

    pub fn document_state(&self) -> BpResult<(u64, bool)> {
        self.check()?;
        let (doc_gen, _, dialog_open, _) = self.doc();
        Ok((doc_gen, dialog_open))
    }

    pub(in crate::browser) async fn read_node_now(
        &mut self,
        handle: NodeHandle,
    ) -> BpResult<NodeState> {
        self.check()?;
        if let Some(v) = self.take_resolved(handle) {
            let state = if v["facts"].is_array() {
                &v["state"]
            } else {
                &v
            };
            return Ok(node_state(state));
        }
        let v = self
            .call_on(handle, js::NODE_STATE, json!([]), true)
            .await?;
        if self.in_main_frame(handle) {
            self.note_mutations(v["value"]["mutations"].as_u64());
        }
        Ok(node_state(&v["value"]))
    }

    /// The page and, when given, one node's state. A node of the main
    /// frame is read together with the page facts in one page call; any
    /// other takes two. A node that cannot be read gives `None`.
    pub(in crate::browser) async fn page_and_node_now(
        &mut self,
        handle: Option<NodeHandle>,
    ) -> BpResult<(PageInfo, Option<NodeState>)> {
        self.check()?;
        let Some(handle) = handle else {
            return Ok((self.current_page().await?, None));
        };
        let main_frame = self.in_main_frame(handle);
        let (_, _, dialog_open, _) = self.doc();
        if main_frame && !dialog_open {
            let read = match self.take_resolved(handle) {
                Some(value) => Ok(json!({ "value": value })),
                None => {
                    self.call_on(handle, &js::node_and_page(), json!([]), true)
                        .await
                }
            };
            if let Some(v) = read
                .as_ref()
                .ok()
                .map(|v| &v["value"])
                .filter(|v| v["facts"].is_array() && v["state"].is_object())
            {
                // As of the reply (see `current_page`).
                let info = PageInfo {
                    url: crate::sanitize::redact::url(&as_str(&v["facts"][0])),
                    title: as_str(&v["facts"][1]),
                    document_generation: self.doc().0,
                    dialog_open,
                };
                let state = node_state(&v["state"]);
                let seen = v["state"]["mutations"].as_u64();
                self.note_mutations(seen);
                return Ok((info, Some(state)));
            }
        }
        let info = self.current_page().await?;
        let node = self.read_node_now(handle).await.ok();
        Ok((info, node))
    }

    /// What a person sees of the page or one node. Text a person cannot
    /// see is left out (or kept, with `include_hidden`) and counted by
    /// reason; invisible characters are always removed, and counted.
    pub async fn text(
        &mut self,
        handle: Option<NodeHandle>,
        max_chars: u32,
        include_hidden: bool,
    ) -> BpResult<PageText> {
        self.check()?;
        let v = match handle {
            Some(h) => {
                let args = json!([{"value": max_chars}, {"value": include_hidden}, {"value": js::FIELD_CHARS}]);
                self.call_on(h, js::NODE_TEXT, args, true).await?["value"].clone()
            }
            None => {
                self.evaluate_value(&js::page_text(max_chars, include_hidden))
                    .await?
            }
        };
        let (text, invisible) = crate::sanitize::invisible::strip(&as_str(&v[0]));
        let mut hidden: Vec<(String, u32)> = v[2]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, n)| (k.clone(), n.as_u64().unwrap_or(0) as u32))
                    .collect()
            })
            .unwrap_or_default();
        if invisible > 0 {
            hidden.push(("invisible_chars".into(), invisible as u32));
        }
        Ok(PageText {
            text,
            truncated: v[1].as_bool().unwrap_or(false),
            hidden,
        })
    }
}
