//! A tool's declared contract, turned into the WIT manifest by
//! [`crate::export_component!`].

use crate::types::{ArtifactKind, ToolHint};
use serde_json::Value;

/// Whether repeating a call may repeat its effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Idempotency {
    Idempotent,
    NotIdempotent,
}

/// What cancelling a call can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cancellation {
    /// Cancellation only prevents a start.
    BeforeDispatch,
    /// The tool stops at its next step.
    Cooperative,
}

/// The declaration of one tool.
pub struct ToolSpec {
    /// Stable tool name.
    pub name: String,
    /// One-line description.
    pub description: String,
    /// JSON Schema of the arguments.
    pub input_schema: Value,
    /// JSON Schema of the result.
    pub output_schema: Value,
    /// Capability interfaces needed.
    pub capabilities: Vec<String>,
    /// Whether browser state may change.
    pub mutates: bool,
    pub idempotency: Idempotency,
    pub cancellation: Cancellation,
    /// Sensitivity classes of inputs.
    pub sensitivity_input: Vec<String>,
    /// Sensitivity classes of outputs.
    pub sensitivity_output: Vec<String>,
    /// Kinds of artifact the tool may create.
    pub artifact_kinds: Vec<ArtifactKind>,
    /// What the tool's effect is like (destructive, open world).
    pub hints: Vec<ToolHint>,
}

impl ToolSpec {
    /// A read-only tool needing `capabilities`.
    pub fn read(name: &str, description: &str, capabilities: &[&str]) -> Self {
        Self {
            name: name.to_string(),
            description: description.to_string(),
            input_schema: serde_json::json!({"type": "object"}),
            output_schema: serde_json::json!({"type": "object"}),
            capabilities: capabilities.iter().map(|c| (*c).to_string()).collect(),
            mutates: false,
            idempotency: Idempotency::Idempotent,
            cancellation: Cancellation::BeforeDispatch,
            sensitivity_input: Vec::new(),
            sensitivity_output: Vec::new(),
            artifact_kinds: Vec::new(),
            hints: Vec::new(),
        }
    }

    /// A state-changing tool needing `capabilities`.
    pub fn mutating(name: &str, description: &str, capabilities: &[&str]) -> Self {
        Self {
            mutates: true,
            idempotency: Idempotency::NotIdempotent,
            ..Self::read(name, description, capabilities)
        }
    }

    /// Set the input and output schemas.
    pub fn schemas(mut self, input: Value, output: Value) -> Self {
        self.input_schema = input;
        self.output_schema = output;
        self
    }

    /// The tool waits (for a page, between keys): a cancel stops it at
    /// its current wait instead of only being recorded.
    pub fn cooperative(mut self) -> Self {
        self.cancellation = Cancellation::Cooperative;
        self
    }

    /// Declare the kinds of artifact the tool creates.
    pub fn creates(mut self, kinds: &[ArtifactKind]) -> Self {
        self.artifact_kinds = kinds.to_vec();
        self
    }

    /// It takes away what cannot be had back (a closed tab, cleared
    /// cookies, rules that change what pages get).
    pub fn destructive(mut self) -> Self {
        self.hints.push(ToolHint::Destructive);
        self
    }

    /// It reaches pages out in the world (navigation, a new tab).
    pub fn open_world(mut self) -> Self {
        self.hints.push(ToolHint::OpenWorld);
        self
    }

    /// Set the sensitivity classes.
    pub fn sensitivity(mut self, input: &[&str], output: &[&str]) -> Self {
        self.sensitivity_input = input.iter().map(|c| (*c).to_string()).collect();
        self.sensitivity_output = output.iter().map(|c| (*c).to_string()).collect();
        self
    }
}

/// The schema fragment for `targetId`, accepted by every target tool.
pub fn target_id_schema() -> Value {
    serde_json::json!({"type": "string", "description": "Opaque controlled-target ID; defaults to the workspace's current target."})
}

/// The common result fields the host adds to every target result.
pub fn with_common(mut props: serde_json::Map<String, Value>) -> serde_json::Map<String, Value> {
    for key in ["workspaceId", "leaseId", "targetId", "url", "origin"] {
        props.insert(key.to_string(), serde_json::json!({"type": "string"}));
    }
    props.insert(
        "generation".to_string(),
        serde_json::json!({"type": "integer"}),
    );
    props
}
