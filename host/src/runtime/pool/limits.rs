//! The per-call resource limiter: linear memory up to the policy's cap,
//! a bounded number of instances and table entries. Going past the memory
//! cap fails the call with [`MemoryExceeded`], a typed error the runtime
//! recognises without reading any message text.

/// Most instances a component may create in one call.
const MAX_INSTANCES: usize = 16;
/// Most entries one table may grow to.
const MAX_TABLE_ELEMENTS: usize = 1 << 20;

/// A component asked for more linear memory than its call may have.
#[derive(Debug)]
pub struct MemoryExceeded {
    pub wanted: usize,
    pub cap: usize,
}

impl std::fmt::Display for MemoryExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "linear memory of {} bytes asked for, {} allowed",
            self.wanted, self.cap
        )
    }
}

impl std::error::Error for MemoryExceeded {}

/// One call's limits.
pub struct CallLimits {
    pub memory_cap: usize,
}

impl wasmtime::ResourceLimiter for CallLimits {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.memory_cap {
            return Err(wasmtime::Error::new(MemoryExceeded {
                wanted: desired,
                cap: self.memory_cap,
            }));
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= MAX_TABLE_ELEMENTS)
    }

    fn instances(&self) -> usize {
        MAX_INSTANCES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmtime::ResourceLimiter;

    #[test]
    fn growing_past_the_cap_is_a_typed_error() {
        let mut l = CallLimits {
            memory_cap: 1 << 20,
        };
        assert!(l.memory_growing(0, 1 << 19, None).unwrap());
        let e = l.memory_growing(0, 2 << 20, None).unwrap_err();
        assert!(e.downcast_ref::<MemoryExceeded>().is_some());
    }
}
