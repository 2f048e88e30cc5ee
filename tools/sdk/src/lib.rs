//! Guest-side SDK for Browser Pilot tool components.
//!
//! A tool family implements [`Component`] and registers it with
//! [`export_component!`]; the macro adapts it to the generated `tool`
//! export. The SDK also owns the shared WIT `types` (so every component
//! uses the same [`ToolError`]) and small helpers for arguments, limits and
//! evidence.

pub mod args;
pub mod bound;
pub mod pace;
pub mod spec;
pub mod storage;
pub mod typing;

/// Bindings for the shared `types` interface only. Component crates map
/// `browser-pilot:tools/types` onto this module with `with:`.
pub mod bindings {
    wit_bindgen::generate!({
        inline: r#"
            package browser-pilot:sdk;
            world sdk {
                import browser-pilot:tools/types@0.1.0;
            }
        "#,
        path: "../../tools-wit",
        generate_all,
    });
}

pub use bindings::browser_pilot::tools::types;
pub use types::{
    ArtifactKind, CallContext, Interruption, NotVerified, StaleReason, ToolError, ToolHint,
};

pub use args::Args;
pub use spec::ToolSpec;

/// The WIT package version these components are built against.
pub const WIT_VERSION: &str = "0.1.0";

/// A tool family: its tool specs and its call entry point.
pub trait Component {
    /// The tools this component offers.
    fn specs() -> Vec<ToolSpec>;
    /// Run tool `name` with parsed arguments. A name that is not one of
    /// [`Component::specs`] is an `invalid-argument` error. The host only
    /// calls names from the component's manifest, so this is the one
    /// check: building every spec again on each call to look the name up
    /// cost about a third of a small call.
    fn call(ctx: &CallContext, name: &str, args: Args) -> Result<serde_json::Value, ToolError>;
}

/// Build an `invalid-argument` error.
pub fn invalid(msg: impl Into<String>) -> ToolError {
    ToolError::InvalidArgument(msg.into())
}

/// Build an `action-not-verified` error with a stable reason and no cover.
pub fn not_verified(reason: &str) -> ToolError {
    ToolError::ActionNotVerified(NotVerified {
        reason: reason.to_string(),
        covering_role: None,
        covering_name: None,
    })
}

/// Parse the JSON input, run the tool, serialise its result within
/// `max_bytes`. Used by [`export_component!`].
pub fn run<C: Component>(
    ctx: &CallContext,
    name: &str,
    input: &str,
    max_bytes: usize,
) -> Result<String, ToolError> {
    let args = Args::parse(input)?;
    let value = C::call(ctx, name, args)?;
    let text = serde_json::to_string(&value)
        .map_err(|e| ToolError::Internal(format!("result serialisation: {e}")))?;
    if text.len() > max_bytes {
        return Err(ToolError::ResultTooLarge(format!(
            "result of {} bytes exceeds the {max_bytes}-byte limit",
            text.len()
        )));
    }
    Ok(text)
}

/// Largest serialised tool result a component returns (4 MiB); observation
/// results are bounded far below it by their own byte limit.
pub const MAX_RESULT_BYTES: usize = 4 * 1024 * 1024;

/// The default for [`export_component!`]'s `raw` hook: no raw results.
pub fn no_raw(_ctx: &CallContext, _name: &str, _input: &str) -> Option<Result<String, ToolError>> {
    None
}

/// Export a [`Component`] through the generated `tool` interface. Call it
/// in the crate that ran `wit_bindgen::generate!` for its world.
///
/// `export_component!(T, raw = f)` lets `f` answer a call with any string
/// before the typed path runs. Only test fixtures that must hand the host
/// malformed results use it. `export_component!(T, init = f)` also
/// exports the world's `wizer-initialize` as `f`.
#[macro_export]
macro_rules! export_component {
    ($ty:ty) => {
        $crate::export_component!($ty, raw = $crate::no_raw);
    };
    // A world that also exports `wizer-initialize` (run once at build
    // time, before the instance is snapshotted; see host/build.rs).
    ($ty:ty, init = $init:path) => {
        $crate::export_component!($ty, raw = $crate::no_raw);
        impl Guest for __BpGuest {
            fn wizer_initialize() {
                $init()
            }
        }
    };
    ($ty:ty, raw = $raw:path) => {
        struct __BpGuest;
        impl exports::browser_pilot::tools::tool::Guest for __BpGuest {
            fn manifest() -> exports::browser_pilot::tools::tool::ComponentManifest {
                use exports::browser_pilot::tools::tool::{
                    Cancellation, ComponentManifest, Idempotency, ToolManifest,
                };
                ComponentManifest {
                    wit_version: $crate::WIT_VERSION.to_string(),
                    tools: <$ty as $crate::Component>::specs()
                        .into_iter()
                        .map(|s| ToolManifest {
                            name: s.name,
                            description: s.description,
                            input_schema: s.input_schema.to_string(),
                            output_schema: s.output_schema.to_string(),
                            capabilities: s.capabilities,
                            mutates: s.mutates,
                            idempotency: match s.idempotency {
                                $crate::spec::Idempotency::Idempotent => Idempotency::Idempotent,
                                $crate::spec::Idempotency::NotIdempotent => {
                                    Idempotency::NotIdempotent
                                }
                            },
                            cancellation: match s.cancellation {
                                $crate::spec::Cancellation::BeforeDispatch => {
                                    Cancellation::BeforeDispatch
                                }
                                $crate::spec::Cancellation::Cooperative => {
                                    Cancellation::Cooperative
                                }
                            },
                            sensitivity_input: s.sensitivity_input,
                            sensitivity_output: s.sensitivity_output,
                            artifact_kinds: s.artifact_kinds,
                            hints: s.hints,
                        })
                        .collect(),
                }
            }
            fn call(
                ctx: $crate::CallContext,
                name: String,
                input: String,
            ) -> Result<String, $crate::ToolError> {
                if let Some(raw) = $raw(&ctx, &name, &input) {
                    return raw;
                }
                $crate::run::<$ty>(&ctx, &name, &input, $crate::MAX_RESULT_BYTES)
            }
        }
        export!(__BpGuest);
    };
}
