//! Validation of component manifests and the canonical `tools/list` entry.

use super::bindings::tool::{Cancellation, ComponentManifest, Idempotency, ToolManifest};
use super::bindings::types::{ArtifactKind, ToolHint};
use super::capability::{self, Capability};
use crate::error::{BpError, BpResult};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// WIT package versions this host accepts from components.
pub const ACCEPTED_WIT: &[&str] = &["0.1.0"];
/// Sensitivity classes a manifest may declare.
pub const SENSITIVITY: &[&str] = &[
    "browser_data",
    "credential",
    "page_capture",
    "page_content",
    "user_file",
];

/// A validated tool declaration.
#[derive(Debug, Clone)]
pub struct ToolInfo {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
    pub output_schema: Value,
    pub capabilities: Vec<Capability>,
    /// What it acts on: a component tool's comes from its capabilities,
    /// a broker-native tool states its own.
    pub scope: capability::Reach,
    pub mutates: bool,
    pub idempotency: Idempotency,
    pub cancellation: Cancellation,
    pub sensitivity_input: Vec<String>,
    pub sensitivity_output: Vec<String>,
    pub artifact_kinds: Vec<ArtifactKind>,
    /// It takes away what cannot be had back (a closed tab, cleared
    /// cookies, rules that change what pages get).
    pub destructive: bool,
    /// It reaches pages out in the world (navigation, a new tab).
    pub open_world: bool,
}

/// Wire spelling of an artifact kind.
pub fn kind_name(k: ArtifactKind) -> &'static str {
    crate::browser::types::ArtifactKind::from(k).as_str()
}

impl ToolInfo {
    /// The `tools/list` entry.
    pub fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
            "outputSchema": self.output_schema,
            "capabilities": self.capabilities,
            "scope": self.scope.as_str(),
            "mutates": self.mutates,
            "idempotency": match self.idempotency {
                Idempotency::Idempotent => "idempotent",
                Idempotency::NotIdempotent => "not_idempotent",
            },
            "cancellation": match self.cancellation {
                Cancellation::BeforeDispatch => "before_dispatch",
                Cancellation::Cooperative => "cooperative",
            },
            "sensitivity": {"input": self.sensitivity_input, "output": self.sensitivity_output},
            "artifactKinds": self.artifact_kinds.iter().map(|k| kind_name(*k)).collect::<Vec<_>>(),
            "annotations": {"readOnly": !self.mutates, "destructive": self.mutates && self.destructive,
                            "openWorld": self.open_world},
        })
    }
}

fn refuse(component: &str, why: String) -> BpError {
    BpError::internal(format!("component `{component}` refused: {why}"))
}

fn check_classes(component: &str, tool: &str, classes: &[String]) -> BpResult<()> {
    let mut seen = BTreeSet::new();
    for c in classes {
        if !SENSITIVITY.contains(&c.as_str()) {
            return Err(refuse(
                component,
                format!("tool `{tool}` declares unknown sensitivity `{c}`"),
            ));
        }
        if !seen.insert(c) {
            return Err(refuse(
                component,
                format!("tool `{tool}` declares sensitivity `{c}` twice"),
            ));
        }
    }
    Ok(())
}

/// Every field-level `x-browser-pilot-sensitivity` class in `schema`.
fn field_classes(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "x-browser-pilot-sensitivity" {
                    out.extend(
                        v.as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                            .map(str::to_string),
                    );
                } else {
                    field_classes(v, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| field_classes(v, out)),
        _ => {}
    }
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.contains('.')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
}

/// Check a component's manifest against what it imports.
pub fn validate(
    component: &str,
    m: &ComponentManifest,
    imported: &[Capability],
) -> BpResult<Vec<ToolInfo>> {
    if !ACCEPTED_WIT.contains(&m.wit_version.as_str()) {
        return Err(refuse(
            component,
            format!(
                "built against WIT {}, this host accepts {}",
                m.wit_version,
                ACCEPTED_WIT.join(", ")
            ),
        ));
    }
    if m.tools.is_empty() {
        return Err(refuse(component, "it declares no tools".into()));
    }
    let mut names = BTreeSet::new();
    let mut out = Vec::new();
    for t in &m.tools {
        if !names.insert(t.name.clone()) {
            return Err(refuse(
                component,
                format!("tool `{}` declared twice", t.name),
            ));
        }
        out.push(validate_tool(component, t)?);
    }
    // A capability the component imports but no tool declares would be a
    // hidden privilege. (The reverse is harmless: the linker drops imports
    // a build never uses, and policy still applies to declared ones.)
    for cap in imported {
        if !out.iter().any(|t| t.capabilities.contains(cap)) {
            return Err(refuse(
                component,
                format!("it imports `{cap}` but no tool declares it"),
            ));
        }
    }
    Ok(out)
}

/// Check one tool of a manifest.
fn validate_tool(component: &str, t: &ToolManifest) -> BpResult<ToolInfo> {
    if !valid_name(&t.name) {
        return Err(refuse(component, format!("invalid tool name `{}`", t.name)));
    }
    let mut capabilities = Vec::new();
    for cap in &t.capabilities {
        let c = Capability::from_name(cap).ok_or_else(|| {
            refuse(
                component,
                format!("tool `{}` claims unknown capability `{cap}`", t.name),
            )
        })?;
        capabilities.push(c);
    }
    if !t.artifact_kinds.is_empty() && !capabilities.contains(&Capability::Artifacts) {
        return Err(refuse(
            component,
            format!(
                "tool `{}` declares artifact kinds without the artifacts capability",
                t.name
            ),
        ));
    }
    let input_schema =
        checked_schema(component, t, &t.input_schema, &t.sensitivity_input, "input")?;
    let output_schema = checked_schema(
        component,
        t,
        &t.output_schema,
        &t.sensitivity_output,
        "output",
    )?;
    Ok(ToolInfo {
        name: t.name.clone(),
        description: t.description.clone(),
        input_schema,
        output_schema,
        scope: capability::reach_of(&capabilities),
        capabilities,
        mutates: t.mutates,
        idempotency: t.idempotency,
        cancellation: t.cancellation,
        sensitivity_input: t.sensitivity_input.clone(),
        sensitivity_output: t.sensitivity_output.clone(),
        artifact_kinds: t.artifact_kinds.clone(),
        destructive: t.hints.contains(&ToolHint::Destructive),
        open_world: t.hints.contains(&ToolHint::OpenWorld),
    })
}

/// Parse one of a tool's schemas; it must be a JSON object, and every
/// sensitivity class its fields carry must be declared.
fn checked_schema(
    component: &str,
    t: &ToolManifest,
    text: &str,
    declared: &[String],
    which: &str,
) -> BpResult<Value> {
    check_classes(component, &t.name, declared)?;
    let schema = serde_json::from_str::<Value>(text)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| {
            refuse(
                component,
                format!("tool `{}` {which} schema is not a JSON object", t.name),
            )
        })?;
    let mut fields = Vec::new();
    field_classes(&schema, &mut fields);
    if let Some(missing) = fields.iter().find(|c| !declared.contains(c)) {
        return Err(refuse(
            component,
            format!(
                "tool `{}` marks an {which} field `{missing}` without declaring it",
                t.name
            ),
        ));
    }
    Ok(schema)
}
