//! The registry's own bookkeeping: counters, locking, per-target access,
//! sessions, and the targets an agent may see.

use super::*;

impl Registry {
    /// Bound downloads while they transfer: none may pass `per_item`
    /// bytes, and all in flight together may not pass `staging`.
    pub fn set_download_bounds(&self, per_item: u64, staging: u64) {
        self.lock().download_bounds = (per_item, staging);
    }

    /// A registry that reports changes on `signals`.
    pub fn with_signals(signals: tokio::sync::mpsc::UnboundedSender<Signal>) -> Self {
        Self {
            signals: Some(signals),
            ..Self::default()
        }
    }

    /// Count elements an observation described: `by_page` by the page's
    /// own markup, `by_accessibility` through Chromium's tree.
    /// `known` of them were identified by an earlier observation, and
    /// `with_walk` got their node ID in the walk's own answer.
    pub fn count_described(&self, by_page: u64, by_accessibility: u64, known: u64, with_walk: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        for (counter, n) in self
            .described
            .iter()
            .zip([by_page, by_accessibility, known, with_walk])
        {
            counter.fetch_add(n, Relaxed);
        }
    }

    /// (by the page, by accessibility, already identified, node ID with
    /// the walk) since the connection began.
    pub fn described(&self) -> [u64; 4] {
        use std::sync::atomic::Ordering::Relaxed;
        self.described.each_ref().map(|c| c.load(Relaxed))
    }

    /// Count a ref resolved through a held object or by backend node ID.
    pub fn count_ref_resolved(&self, held: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        self.refs_resolved[usize::from(!held)].fetch_add(1, Relaxed);
    }

    /// (through held objects, by backend node) since the connection began.
    pub fn refs_resolved(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (
            self.refs_resolved[0].load(Relaxed),
            self.refs_resolved[1].load(Relaxed),
        )
    }

    /// Whether the target's renderer crashed and no navigation has
    /// recovered it since.
    pub fn crashed(&self, raw_id: &str) -> bool {
        self.with(raw_id, |t| t.crashed).unwrap_or(false)
    }

    /// Count a page walk: sent as source, or a call of the walk agent.
    pub fn count_walk(&self, by_agent: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        self.walks[usize::from(by_agent)].fetch_add(1, Relaxed);
    }

    /// (sent as source, by agent) since the connection began.
    pub fn walks(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.walks[0].load(Relaxed), self.walks[1].load(Relaxed))
    }

    /// A read sent with an input (`observe/proved_read.rs`): taken, or made again.
    pub fn count_readback(&self, proof: crate::browser::proof::Proof, taken: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        self.readbacks[proof as usize][usize::from(!taken)].fetch_add(1, Relaxed);
    }

    /// Reads sent again with an input still unanswered, the one before
    /// having come back too early (`observe/proved_read.rs`).
    pub fn count_early_retries(&self, proof: crate::browser::proof::Proof, retried: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        self.readbacks[proof as usize][2].fetch_add(retried, Relaxed);
    }

    /// (taken from a read sent with the input, read again once it was
    /// answered, sent again before that) since the connection began.
    pub fn readback_counts(&self, proof: crate::browser::proof::Proof) -> [u64; 3] {
        use std::sync::atomic::Ordering::Relaxed;
        self.readbacks[proof as usize]
            .each_ref()
            .map(|c| c.load(Relaxed))
    }

    /// Wait (at most `limit`) until every signal sent so far is handled.
    pub async fn flush_signals(&self, limit: std::time::Duration) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.signal(Signal::Flush(tx));
        let _ = tokio::time::timeout(limit, rx).await;
    }

    /// Claim the console enable of `raw`'s current session: its session
    /// when it is attached and nobody enabled the console on it yet.
    pub fn claim_console(&self, raw_id: &str) -> Option<String> {
        let mut inner = self.lock();
        let t = inner.targets.get_mut(raw_id)?;
        let session = t.session.clone()?;
        (!std::mem::replace(&mut t.console_on, true)).then_some(session)
    }

    pub(super) fn signal(&self, s: Signal) {
        if let Some(tx) = &self.signals {
            let _ = tx.send(s);
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Downloads of `raw` the browser is still writing: GUID and name.
    pub fn downloads_of(&self, raw: &str) -> Vec<(String, String)> {
        self.lock()
            .downloads
            .iter()
            .filter(|(_, d)| d.raw == raw)
            .map(|(guid, d)| (guid.clone(), d.filename.clone()))
            .collect()
    }

    /// Run `f` on the target's state.
    pub fn with<R>(&self, raw_id: &str, f: impl FnOnce(&TargetState) -> R) -> Option<R> {
        self.lock().targets.get(raw_id).map(f)
    }

    /// Run `f` on the target's state, mutably, and wake waiters.
    pub fn update(&self, raw_id: &str, f: impl FnOnce(&mut TargetState)) {
        let mut inner = self.lock();
        let t = inner
            .targets
            .entry(RawTargetId::new(raw_id))
            .or_insert_with(|| TargetState::new(raw_id));
        f(t);
        t.bump();
    }

    /// Record the session of a target we attached to.
    pub fn set_session(&self, raw_id: &str, session: &str) {
        let mut inner = self.lock();
        inner
            .by_session
            .insert(SessionId::new(session), RawTargetId::new(raw_id));
        let t = inner
            .targets
            .entry(RawTargetId::new(raw_id))
            .or_insert_with(|| TargetState::new(raw_id));
        if t.session.as_deref() != Some(session) {
            tracing::debug!(target = raw_id, old = ?t.session, new = session, "page session set");
            t.session = Some(session.to_string());
            t.session_serial += 1;
            t.intercepting = false;
            t.console_on = false;
            t.page_tools.session_replaced();
        }
        t.bump();
    }

    /// A receiver that changes whenever the target's state does.
    pub fn watch(&self, raw_id: &str) -> Option<watch::Receiver<u64>> {
        self.lock()
            .targets
            .get(raw_id)
            .map(|t| t.changed.subscribe())
    }

    /// Raw IDs of eligible targets, in a stable order.
    pub fn eligible_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .lock()
            .targets
            .values()
            .filter(|t| t.eligible())
            .map(|t| t.raw_id.clone())
            .collect();
        ids.sort();
        ids
    }

    /// Open eligible targets, and the targets the broker holds a session
    /// on (what a leak check counts).
    pub fn counts(&self) -> (usize, usize) {
        let inner = self.lock();
        let open = inner.targets.values().filter(|t| t.eligible()).count();
        let attached = inner
            .targets
            .values()
            .filter(|t| !t.closed && t.session.is_some())
            .count();
        (open, attached)
    }

    /// Dialogs pending longer than `after` whose watchdog has not fired;
    /// marks them fired.
    pub fn overdue_dialogs(&self, after: std::time::Duration) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for t in self.lock().targets.values_mut() {
            if let Some(d) = t
                .dialog
                .as_mut()
                .filter(|d| !d.watchdog_sent && d.opened.elapsed() >= after)
            {
                d.watchdog_sent = true;
                out.push((t.raw_id.clone(), d.id.clone()));
            }
        }
        out
    }

    /// Mark every target closed (the connection is gone).
    pub fn close_all(&self) {
        let mut staging = Vec::new();
        {
            let mut inner = self.lock();
            for t in inner.targets.values_mut() {
                t.closed = true;
                t.session = None;
                t.bump();
                staging.extend(t.download_dir.clone());
            }
            inner.downloads.clear();
        }
        self.signal(Signal::Disconnected { staging });
    }

    /// Apply a `TargetInfo` (from an event or `Target.getTargets`);
    /// returns the target ID.
    pub fn apply_info(&self, info: &Value) -> Option<String> {
        let id = s(info, "targetId")?;
        self.update(&id, |t| {
            t.kind = s(info, "type").unwrap_or_default();
            t.url = url_of(info, "url").unwrap_or_default();
            t.title = s(info, "title").unwrap_or_default();
            if t.opener.is_none() {
                t.opener = s(info, "openerId");
            }
        });
        Some(id)
    }
}
