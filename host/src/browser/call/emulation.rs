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
    /// (method and parameters, for a check of what is sent).
    pub fn command(&self) -> BpResult<(MethodId, Value)> {
        let wire = match self {
            Override::Metrics { .. } => Wire::of(&self.metrics()),
            Override::ClearMetrics => Wire::of(&ClearDeviceMetricsOverrideParams::default()),
            Override::Media(_) => Wire::of(&self.media()),
        }?;
        Ok((wire.method, wire.params))
    }

    /// Make the override on `session`.
    async fn send(&self, cdp: &Cdp, session: &str) -> BpResult<()> {
        let s = Some(session);
        match self {
            Override::Metrics { .. } => cdp.send(&self.metrics(), s).await.map(drop),
            Override::ClearMetrics => cdp
                .send(&ClearDeviceMetricsOverrideParams::default(), s)
                .await
                .map(drop),
            Override::Media(_) => cdp.send(&self.media(), s).await.map(drop),
        }
    }

    /// `Emulation.setDeviceMetricsOverride` of a size (the default
    /// otherwise).
    fn metrics(&self) -> SetDeviceMetricsOverrideParams {
        let (width, height, scale, mobile) = match self {
            Override::Metrics {
                width,
                height,
                scale,
                mobile,
            } => (*width, *height, *scale, *mobile),
            _ => (0, 0, 0.0, false),
        };
        SetDeviceMetricsOverrideParams::new(width, height, scale, mobile)
    }

    /// `Emulation.setEmulatedMedia` of the media features (none
    /// otherwise: all removed).
    fn media(&self) -> SetEmulatedMediaParams {
        let features = match self {
            Override::Media(features) => features
                .iter()
                .map(|(name, value)| MediaFeature::new(*name, *value))
                .collect(),
            _ => Vec::new(),
        };
        SetEmulatedMediaParams {
            media: None,
            features: Some(features),
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
        let (method, _) = o.command()?;
        self.ready_for(&method)?;
        o.send(&self.cdp, &self.session).await
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
            if let Err(e) = o.send(cdp, &session).await {
                tracing::info!("could not remove an emulation override: {}", e.message);
            }
        }
        cleared.push(raw);
    }
    cleared
}
