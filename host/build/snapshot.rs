//! Pre-initialise a component at build time (wasmtime-wizer): instantiate
//! it once with every import a trap, call its `wizer-initialize` export,
//! and write its memory and globals back into the component. Every later
//! instance starts from that state. The page-tools component builds its
//! meta-schema validators this way instead of in every call's instance.
//!
//! The initialiser may call no import but `wasi:random`: any other
//! would trap here and fail the build, so nothing of the build machine (no
//! clock, no environment, no file) can reach the snapshot. Random numbers
//! are answered: the JSON Schema crate's hash tables (ahash) draw their
//! keys once per instance, on first use, and without a snapshot every
//! call's instance drew its own. With it, the keys are drawn here, from
//! this build's own random source, and every instance of this build shares
//! them (docs/security.md).

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use wasmtime::component::{Component, Instance, Lift, Linker, WasmList};
use wasmtime::{Engine, Store};
use wasmtime_wizer::{ComponentInstanceState, Wizer};

/// The component `wasm`, with its `wizer-initialize` run.
pub fn snapshot(wasm: &[u8]) -> Result<Vec<u8>, String> {
    let mut wizer = Wizer::new();
    // Kept: removing it leaves the component lifting a core export that
    // wizer 48 dropped (invalid wasm). The host never calls it, and a call
    // would find everything built already.
    wizer.keep_init_func(true);
    let (cx, instrumented) = wizer
        .instrument_component(wasm)
        .map_err(|e| format!("instrumenting: {e:#}"))?;
    let engine = Engine::default();
    let component =
        Component::new(&engine, &instrumented).map_err(|e| format!("compiling: {e:#}"))?;
    let mut linker: Linker<()> = Linker::new(&engine);
    random_source(&mut linker, &component).map_err(|e| format!("linking random: {e:#}"))?;
    linker
        .define_unknown_imports_as_traps(&component)
        .map_err(|e| format!("linking: {e:#}"))?;
    let mut store = Store::new(&engine, ());
    let instance = linker
        .instantiate(&mut store, &component)
        .map_err(|e| format!("instantiating: {e:#}"))?;
    let init = instance
        .get_typed_func::<(), ()>(&mut store, wizer.get_init_func())
        .map_err(|e| format!("no `{}` export: {e:#}", wizer.get_init_func()))?;
    init.call(&mut store, ())
        .map_err(|e| format!("the initialiser trapped (an import?): {e:#}"))?;
    let mut state = State {
        store: &mut store,
        instance,
    };
    block_on(wizer.snapshot_component(&cx, &mut state))?.map_err(|e| format!("snapshotting: {e:#}"))
}

/// `wasi:random/random` and `insecure-seed` (whichever versions the
/// component imports) from
/// this process's randomly keyed hasher; every other import traps.
fn random_source(linker: &mut Linker<()>, component: &Component) -> wasmtime::Result<()> {
    let engine = component.engine().clone();
    let names: Vec<String> = component
        .component_type()
        .imports(&engine)
        .map(|(name, _)| name.to_string())
        .filter(|name| name.starts_with("wasi:random/"))
        .collect();
    for name in names {
        let mut random = linker.instance(&name)?;
        if name.starts_with("wasi:random/insecure-seed@") {
            random.func_wrap("insecure-seed", |_, (): ()| {
                Ok(((random_u64(), random_u64()),))
            })?;
            continue;
        }
        if !name.starts_with("wasi:random/random@") {
            continue;
        }
        random.func_wrap("get-random-u64", |_, (): ()| Ok((random_u64(),)))?;
        random.func_wrap("get-random-bytes", |_, (len,): (u64,)| {
            let len = usize::try_from(len.min(1 << 20)).unwrap_or(0);
            let mut bytes = Vec::with_capacity(len + 8);
            while bytes.len() < len {
                bytes.extend(random_u64().to_le_bytes());
            }
            bytes.truncate(len);
            Ok((bytes,))
        })?;
    }
    Ok(())
}

/// 64 random bits: std's `RandomState` is keyed randomly per process, and
/// each new one steps its keys.
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u8(0);
    hasher.finish()
}

/// Run a future that never waits (every call below is synchronous).
fn block_on<F: Future>(future: F) -> Result<F::Output, String> {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..1000 {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return Ok(out);
        }
    }
    Err("the snapshot did not finish".into())
}

/// The instance wizer reads the state from, through the accessor
/// functions its instrumentation exported.
struct State<'a> {
    store: &'a mut Store<()>,
    instance: Instance,
}

impl State<'_> {
    fn call<R: Lift + 'static>(&mut self, instance: &str, func: &str) -> R {
        let found = self
            .instance
            .get_export_index(&mut *self.store, None, instance)
            .and_then(|i| {
                self.instance
                    .get_export_index(&mut *self.store, Some(&i), func)
            });
        let Some(index) = found else {
            panic!("the instrumented component has no {instance}#{func}");
        };
        match self
            .instance
            .get_typed_func::<(), (R,)>(&mut *self.store, index)
            .and_then(|f| f.call(&mut *self.store, ()))
        {
            Ok((r,)) => r,
            Err(e) => panic!("reading {instance}#{func}: {e:#}"),
        }
    }
}

impl ComponentInstanceState for State<'_> {
    async fn call_func_ret_list_u8(
        &mut self,
        instance: &str,
        func: &str,
        contents: impl FnOnce(&[u8]) + Send,
    ) {
        let list: WasmList<u8> = self.call(instance, func);
        contents(list.as_le_slice(&*self.store));
    }

    async fn call_func_ret_s32(&mut self, instance: &str, func: &str) -> i32 {
        self.call(instance, func)
    }

    async fn call_func_ret_s64(&mut self, instance: &str, func: &str) -> i64 {
        self.call(instance, func)
    }

    async fn call_func_ret_f32(&mut self, instance: &str, func: &str) -> u32 {
        self.call::<f32>(instance, func).to_bits()
    }

    async fn call_func_ret_f64(&mut self, instance: &str, func: &str) -> u64 {
        self.call::<f64>(instance, func).to_bits()
    }
}
