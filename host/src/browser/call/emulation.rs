//! Emulation overrides on a [`TargetCall`]'s tab: the device metrics and
//! the media features the page renders with. The tab is marked while an
//! override may be in place, so the broker can remove it when no lease
//! controls the tab any more ([`clear_overrides`]). The `emulation`
//! capability reaches these through the tab façade (`crate::tab`).

use crate::browser::call::wire::Wire;
use crate::browser::call::TargetCall;
use crate::browser::registry::Registry;
use crate::cdp::Cdp;
use crate::error::BpResult;
use chromiumoxide::cdp::browser_protocol::emulation::{
    ClearDeviceMetricsOverrideParams, MediaFeature, SetDeviceMetricsOverrideParams,
    SetEmulatedMediaParams,
};
use chromiumoxide::types::MethodId;
use serde_json::Value;

/// An override of the page's rendering.
#[derive(Debug, Clone, PartialEq)]
pub enum Override {
    /// Render at this size (CSS px), device scale factor and mobile mode.
    Metrics {
        width: u32,
        height: u32,
        scale: f64,
        mobile: bool,
    },
    /// Remove the size override.
    ClearMetrics,
    /// Emulate these media features, `(name, value)`; empty removes all.
    Media(Vec<(&'static str, &'static str)>),
}

impl Override {
    /// The CDP command that makes the override, as it goes on the wire
    /// (method and parameters).
    pub fn command(&self) -> BpResult<(MethodId, Value)> {
        let wire = self.wire()?;
        Ok((wire.method, wire.params))
    }

    /// The typed command that makes the override, in its wire form.
    fn wire(&self) -> BpResult<Wire> {
        match self {
            Override::Metrics {
                width,
                height,
                scale,
                mobile,
            } => Wire::of(&SetDeviceMetricsOverrideParams::new(
                *width, *height, *scale, *mobile,
            )),
            Override::ClearMetrics => Wire::of(&ClearDeviceMetricsOverrideParams::default()),
            Override::Media(features) => Wire::of(&SetEmulatedMediaParams {
                media: None,
                features: Some(
                    features
                        .iter()
                        .map(|(name, value)| MediaFeature::new(*name, *value))
                        .collect(),
                ),
            }),
        }
    }
}

impl TargetCall {
    /// Make `o` on the call's tab; the tab is marked as overridden first,
    /// so a failure half-way still gets the override removed later.
    pub async fn emulate(&mut self, o: &Override) -> BpResult<()> {
        self.check()?;
        self.mark_dispatched();
        self.registry.update(&self.raw_id, |t| t.emulated = true);
        self.send_wire(o.wire()?).await.map(|_| ())
    }
}

/// Remove every override from the tabs `keep` does not claim (no lease
/// controls them): the size, the media features. Best effort per tab;
/// returns the tabs cleared.
pub async fn clear_overrides(
    cdp: &Cdp,
    registry: &Registry,
    keep: impl Fn(&str) -> bool,
) -> Vec<String> {
    let marked: Vec<(String, Option<String>)> = registry
        .eligible_ids()
        .into_iter()
        .filter(|raw| !keep(raw))
        .filter_map(|raw| {
            registry
                .with(&raw, |t| t.emulated.then(|| t.session.clone()))
                .flatten()
                .map(|session| (raw, session))
        })
        .collect();
    let mut cleared = Vec::new();
    for (raw, session) in marked {
        registry.update(&raw, |t| t.emulated = false);
        // A tab no longer attached has lost its overrides with its session.
        let Some(session) = session else { continue };
        for o in [Override::ClearMetrics, Override::Media(Vec::new())] {
            let sent = match o.wire() {
                Ok(w) => cdp.call(&w.method, Some(&session), w.params).await,
                Err(e) => Err(e),
            };
            if let Err(e) = sent {
                tracing::info!("could not remove an emulation override: {}", e.message);
            }
        }
        cleared.push(raw);
    }
    cleared
}
