//! The meta-schema validators a declared schema is checked against, built
//! once per instance and kept. `jsonschema` builds the meta-schema's
//! validator anew for every schema it compiles on wasm (about 0.9 ms for
//! draft 7, 4 ms for 2020-12); here the page's schema is compiled without
//! that step, after the same check against a kept validator.
//!
//! `prepare` builds the draft 7 and 2020-12 ones. host/build.rs runs it
//! once at build time (as `wizer-initialize`) and snapshots the instance's
//! memory, so every instance starts with both built. The rarer drafts
//! (4, 6, 2019-09, named by `$schema`) are built when a schema asks.

use jsonschema::meta::MetaValidator;
use jsonschema::Draft;
use serde_json::Value;
use std::cell::OnceCell;

thread_local! {
    static DRAFT7: OnceCell<MetaValidator<'static>> = const { OnceCell::new() };
    static DRAFT2020: OnceCell<MetaValidator<'static>> = const { OnceCell::new() };
}

/// Build the kept validators (the build-time initialiser; calls no import).
pub fn prepare() {
    DRAFT7.with(|c| {
        c.get_or_init(jsonschema::draft7::meta::validator);
    });
    DRAFT2020.with(|c| {
        c.get_or_init(jsonschema::draft202012::meta::validator);
    });
}

/// The draft `jsonschema` would use for `schema` under `forced` (or by its
/// `$schema`, 2020-12 when it names none or one the crate does not know).
pub fn draft_for(forced: Option<Draft>, schema: &Value) -> Draft {
    forced.unwrap_or_else(|| Draft::default().detect(schema))
}

/// Whether `schema` is valid against `draft`'s meta-schema, as the crate
/// itself decides before compiling (booleans and `{}` always are).
pub fn schema_is_valid(draft: Draft, schema: &Value) -> bool {
    if schema.is_boolean() || schema.as_object().is_some_and(|o| o.is_empty()) {
        return true;
    }
    match draft {
        Draft::Draft4 => jsonschema::draft4::meta::is_valid(schema),
        Draft::Draft6 => jsonschema::draft6::meta::is_valid(schema),
        Draft::Draft201909 => jsonschema::draft201909::meta::is_valid(schema),
        Draft::Draft7 => DRAFT7.with(|c| {
            c.get_or_init(jsonschema::draft7::meta::validator)
                .is_valid(schema)
        }),
        _ => DRAFT2020.with(|c| {
            c.get_or_init(jsonschema::draft202012::meta::validator)
                .is_valid(schema)
        }),
    }
}
