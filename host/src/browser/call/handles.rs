//! The node handles of a [`TargetCall`]: the nodes one call has named
//! (backend node, frame, session), their remote objects in the call's
//! object group, and the page-side function calls made on them.

use crate::browser::call::wire::{evaluate_by_value, Wire};
use crate::browser::call::{as_str, Handle, TargetCall};
use crate::error::{BpError, BpResult, StaleReason};
use crate::ids::SessionId;
use chromiumoxide::cdp::browser_protocol::dom::{BackendNodeId, ResolveNodeParams};
use serde_json::Value;

impl TargetCall {
    pub(in crate::browser) fn handle(&self, handle: u32) -> BpResult<&Handle> {
        self.handles
            .get(handle as usize)
            .ok_or_else(|| BpError::invalid("unknown node handle"))
    }

    pub(in crate::browser) fn backend(&self, handle: u32) -> BpResult<i64> {
        self.handle(handle).map(|h| h.backend)
    }

    pub(in crate::browser) fn new_handle(
        &mut self,
        backend: i64,
        frame: Option<(String, Option<String>)>,
        session: SessionId,
    ) -> u32 {
        self.handles.push(Handle {
            backend,
            object: None,
            frame,
            session,
        });
        (self.handles.len() - 1) as u32
    }

    /// Whether the handle's node is in the page's own main frame (not in a
    /// frame, and rendered by the page's session).
    pub(in crate::browser) fn in_main_frame(&self, handle: u32) -> bool {
        self.handle(handle)
            .is_ok_and(|h| h.frame.is_none() && h.session == self.session)
    }

    /// Remember a remote object already held for the handle's node.
    pub(in crate::browser) fn set_object(&mut self, handle: u32, object: String) {
        if let Some(h) = self.handles.get_mut(handle as usize) {
            h.object = Some(object);
        }
    }

    /// Forget the handle's remote object (it will be resolved again).
    pub(in crate::browser) fn clear_object(&mut self, handle: u32) {
        if let Some(h) = self.handles.get_mut(handle as usize) {
            h.object = None;
        }
    }

    /// A remote object for the handle's node (resolved once per call).
    pub(in crate::browser) async fn object(&mut self, handle: u32) -> BpResult<String> {
        let backend = self.backend(handle)?;
        if let Some(Some(obj)) = self.handles.get(handle as usize).map(|h| h.object.clone()) {
            return Ok(obj);
        }
        // The object is the call's, released with its group (also when the
        // reply is lost: it may come after all).
        let session = self.handle(handle)?.session.clone();
        self.group_sessions.insert(session);
        let resolve = ResolveNodeParams {
            backend_node_id: Some(BackendNodeId::new(backend)),
            object_group: Some(self.group.clone()),
            ..Default::default()
        };
        // The reply is a remote object: read as JSON (its enums drift).
        let reply = self
            .cmd_for_raw(handle, &resolve)
            .await
            .map_err(|_| BpError::stale(StaleReason::DocumentReplaced))?;
        let obj = as_str(&reply["object"]["objectId"]);
        if obj.is_empty() {
            return Err(BpError::stale(StaleReason::DocumentReplaced));
        }
        if let Some(h) = self.handles.get_mut(handle as usize) {
            h.object = Some(obj.clone());
        }
        Ok(obj)
    }

    pub(crate) async fn call_on(
        &mut self,
        handle: u32,
        function: &str,
        args: Value,
        by_value: bool,
    ) -> BpResult<Value> {
        let object = self.object(handle).await?;
        if !by_value {
            // The result is a remote object of this call's group.
            let session = self.handle(handle)?.session.clone();
            self.group_sessions.insert(session);
        }
        let params = self.call_on_params(&object, function, args, by_value);
        let session = self.handle(handle)?.session.clone();
        let reply = if session == self.session {
            // (A read sent ahead of it is taken here.)
            self.send_or_ahead(Wire::of(&params)?).await
        } else {
            self.cmd_for_raw(handle, &params).await
        };
        match reply {
            Ok(reply) if reply.get("exceptionDetails").is_none() => Ok(reply["result"].clone()),
            // The exception, or a reply never seen that may hold one, is a
            // remote object of this call's group.
            other => {
                self.group_sessions.insert(session);
                other.and(Err(BpError::internal("a page-side helper threw")))
            }
        }
    }

    /// `expression`'s value once the promise it makes has settled.
    pub(crate) async fn evaluate_awaited(&self, expression: &str) -> BpResult<Value> {
        let mut evaluate = evaluate_by_value(expression);
        evaluate.await_promise = Some(true);
        let reply = self.cmd_raw(&evaluate).await?;
        if reply.get("exceptionDetails").is_some() {
            return Err(BpError::internal("a page-side helper threw"));
        }
        Ok(reply["result"]["value"].clone())
    }

    pub(crate) async fn evaluate_value(&self, expression: &str) -> BpResult<Value> {
        let reply = self.cmd_raw(&evaluate_by_value(expression)).await?;
        if reply.get("exceptionDetails").is_some() {
            return Err(BpError::internal("a page-side helper threw"));
        }
        Ok(reply["result"]["value"].clone())
    }
}
