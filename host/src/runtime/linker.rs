//! Linking by policy: the linker gets the WASI subset every Rust guest
//! needs (io streams and cli stdio/env, with an empty context; clocks and
//! random numbers, which hash maps and validators ask for) and exactly the
//! capability interfaces the policy grants. No filesystem, sockets or
//! environment reach a component.
use super::capability::Capability;
use super::policy::Policy;
use super::HostState;
use crate::error::{BpError, BpResult};
use wasmtime::component::types::ComponentItem;
use wasmtime::component::{Component, HasData, HasSelf, Linker, ResourceTable};
use wasmtime::Engine;
use wasmtime_wasi::cli::WasiCliView;

/// Package prefix of our capability interfaces.
const PACKAGE: &str = "browser-pilot:tools/";
/// WASI interfaces a component may import: io and cli (with an empty
/// context), clocks and random. None of them reaches a file, a socket or
/// the broker's environment.
const WASI_ALLOWED: &[&str] = &["wasi:io/", "wasi:cli/", "wasi:clocks/", "wasi:random/"];

struct IoTable;

impl HasData for IoTable {
    type Data<'a> = &'a mut ResourceTable;
}

/// The linker for this policy.
pub fn build(engine: &Engine, policy: &Policy) -> BpResult<Linker<HostState>> {
    let mut l = Linker::<HostState>::new(engine);
    let err = |e: wasmtime::Error| BpError::internal(format!("linking: {e:#}"));
    {
        use wasmtime_wasi_io::bindings::wasi::io::{error, poll, streams};
        error::add_to_linker::<HostState, IoTable>(&mut l, |s| &mut s.table).map_err(err)?;
        poll::add_to_linker::<HostState, IoTable>(&mut l, |s| &mut s.table).map_err(err)?;
        streams::add_to_linker::<HostState, IoTable>(&mut l, |s| &mut s.table).map_err(err)?;
    }
    {
        use wasmtime_wasi::cli::WasiCli;
        use wasmtime_wasi::p2::bindings::cli as c;
        let get = <HostState as WasiCliView>::cli;
        c::exit::add_to_linker::<HostState, WasiCli>(&mut l, get).map_err(err)?;
        c::environment::add_to_linker::<HostState, WasiCli>(&mut l, get).map_err(err)?;
        c::stdin::add_to_linker::<HostState, WasiCli>(&mut l, get).map_err(err)?;
        c::stdout::add_to_linker::<HostState, WasiCli>(&mut l, get).map_err(err)?;
        c::stderr::add_to_linker::<HostState, WasiCli>(&mut l, get).map_err(err)?;
        c::terminal_input::add_to_linker::<HostState, WasiCli>(&mut l, get).map_err(err)?;
        c::terminal_output::add_to_linker::<HostState, WasiCli>(&mut l, get).map_err(err)?;
        c::terminal_stdin::add_to_linker::<HostState, WasiCli>(&mut l, get).map_err(err)?;
        c::terminal_stdout::add_to_linker::<HostState, WasiCli>(&mut l, get).map_err(err)?;
        c::terminal_stderr::add_to_linker::<HostState, WasiCli>(&mut l, get).map_err(err)?;
    }
    {
        use wasmtime_wasi::clocks::{WasiClocks, WasiClocksView};
        use wasmtime_wasi::p2::bindings::{clocks, random};
        use wasmtime_wasi::random::{WasiRandom, WasiRandomView};
        let get = <HostState as WasiClocksView>::clocks;
        clocks::wall_clock::add_to_linker::<HostState, WasiClocks>(&mut l, get).map_err(err)?;
        clocks::monotonic_clock::add_to_linker::<HostState, WasiClocks>(&mut l, get)
            .map_err(err)?;
        let rng = <HostState as WasiRandomView>::random;
        random::random::add_to_linker::<HostState, WasiRandom>(&mut l, rng).map_err(err)?;
        random::insecure::add_to_linker::<HostState, WasiRandom>(&mut l, rng).map_err(err)?;
        random::insecure_seed::add_to_linker::<HostState, WasiRandom>(&mut l, rng).map_err(err)?;
    }
    super::bindings::types::add_to_linker::<HostState, HasSelf<HostState>>(&mut l, |s| s)
        .map_err(err)?;
    for cap in Capability::ALL.into_iter().filter(|c| policy.allows(*c)) {
        (super::capability::link(cap).1)(&mut l).map_err(err)?;
    }
    Ok(l)
}

/// The capability interfaces `component` imports. Imports outside our
/// package and the allowed WASI subset refuse the component.
pub fn imported_capabilities(
    engine: &Engine,
    component: &Component,
) -> Result<Vec<Capability>, String> {
    let mut caps = Vec::new();
    for (name, item) in component.component_type().imports(engine) {
        if !matches!(item.ty, ComponentItem::ComponentInstance(_)) {
            return Err(format!("it imports `{name}`, which is not an interface"));
        }
        if let Some(rest) = name.strip_prefix(PACKAGE) {
            let (iface, version) = rest.split_once('@').unwrap_or((rest, ""));
            if version != "0.1.0" {
                return Err(format!(
                    "it imports `{name}`; this host accepts browser-pilot:tools@0.1.0"
                ));
            }
            if iface == "types" {
                continue;
            }
            let cap = Capability::from_name(iface)
                .ok_or_else(|| format!("it imports unknown capability interface `{name}`"))?;
            caps.push(cap);
        } else if !WASI_ALLOWED.iter().any(|p| name.starts_with(p)) {
            return Err(format!(
                "it imports `{name}`; tools get no filesystem, sockets or other host access"
            ));
        }
    }
    Ok(caps)
}
