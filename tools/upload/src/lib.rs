//! The upload family: `browser.upload` puts files the client imported with
//! `artifacts/import` on a file input, then reads back what the page holds.
//! Only upload artifacts are accepted; the host never reveals their paths.

wit_bindgen::generate!({
    world: "upload-family",
    path: "../../tools-wit",
    with: { "browser-pilot:tools/types@0.1.0": bp_sdk::types },
});

use bp_sdk::spec::{target_id_schema, with_common};
use bp_sdk::{invalid, Args, CallContext, Component, ToolError, ToolSpec};
use browser_pilot::tools::{artifacts, page_read, upload};
use serde_json::{json, Map, Value};

/// Most files one call sets.
const MAX_FILES: usize = 32;

struct Upload;

fn spec() -> ToolSpec {
    let mut props = Map::new();
    props.insert(
        "evidence".into(),
        json!({"type": "object", "required": ["status", "fileCount", "filenamesMatch"], "properties": {
            "status": {"enum": ["verified", "mismatch"]}, "fileCount": {"type": "integer"}, "filenamesMatch": {"type": "boolean"},
            "via": {"enum": ["input", "file_chooser"]}, "names": {"type": "array", "items": {"type": "string"}}}}),
    );
    ToolSpec::mutating(
        "browser.upload",
        "Set imported upload files (artifacts/import) on an observed file input, or on the button or label that opens its file chooser (clicked, the chooser answered).",
        &["page-read", "artifacts", "upload"],
    )
    .schemas(
        json!({"type": "object", "additionalProperties": false, "required": ["observationId", "ref", "artifactIds"], "properties": {
            "targetId": target_id_schema(),
            "observationId": {"type": "string"},
            "ref": {"type": "integer", "minimum": 1},
            "artifactIds": {"type": "array", "minItems": 1, "maxItems": MAX_FILES, "items": {"type": "string"}}}}),
        json!({"type": "object", "required": ["evidence"], "properties": Value::Object(with_common(props))}),
    )
    .sensitivity(&["user_file"], &[])
}

fn ids(args: &mut Args) -> Result<Vec<String>, ToolError> {
    let raw = args
        .opt_str_list("artifactIds")?
        .ok_or_else(|| invalid("`artifactIds` is required"))?;
    if raw.is_empty() || raw.len() > MAX_FILES {
        return Err(invalid(format!(
            "`artifactIds` must hold 1 to {MAX_FILES} IDs"
        )));
    }
    Ok(raw)
}

impl Component for Upload {
    fn specs() -> Vec<ToolSpec> {
        vec![spec()]
    }

    fn call(_ctx: &CallContext, name: &str, mut args: Args) -> Result<Value, ToolError> {
        if name != "browser.upload" {
            return Err(invalid(format!("unknown tool `{name}`")));
        }
        args.allow(&["targetId"]);
        let observation = args.str("observationId")?;
        let reference = args.ref_number("ref")?;
        let ids = ids(&mut args)?;
        args.finish()?;
        // Every ID must be an upload artifact of this workspace.
        let files: Vec<artifacts::UploadFile> = ids
            .iter()
            .map(|id| artifacts::lookup_upload(id))
            .collect::<Result<_, _>>()?;
        let node = page_read::resolve_ref(&observation, reference)?;
        let state = page_read::read_node(node)?;
        // A file input takes the files; anything else (a styled button, a
        // label) is clicked and the file chooser it opens is answered.
        let direct = state.tag == "input" && state.input_type.as_deref() == Some("file");
        let readback = if direct {
            upload::set_files(node, &ids)?
        } else {
            upload::choose_files(node, &ids)?
        };
        let expected: Vec<&str> = files.iter().map(|f| f.filename.as_str()).collect();
        let names_match = readback
            .names
            .iter()
            .map(String::as_str)
            .eq(expected.iter().copied());
        let verified = names_match && readback.file_count as usize == files.len();
        Ok(json!({"evidence": {
            "status": if verified { "verified" } else { "mismatch" },
            "fileCount": readback.file_count,
            "filenamesMatch": names_match,
            "via": if direct { "input" } else { "file_chooser" },
            "names": readback.names,
        }}))
    }
}

bp_sdk::export_component!(Upload);
