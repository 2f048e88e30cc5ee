//! Whether instances may start from copy-on-write memory images.
//!
//! With images, an instance's linear memory is a private mapping of the
//! component's memory image (a memfd the engine writes once per
//! component), and a fresh instance copies nothing. Without them, every
//! instance copies every data segment into fresh pages: for page-tools,
//! about 1 MiB and 250 page faults per call. Writes to a memfd count
//! against the process's file-size limit, so a broker started under a
//! small `ulimit -f` could not load its components with images: it runs
//! without them (its precompiled components then do not match the engine,
//! and are compiled at load, or taken from the cache).

/// The largest memory image a shipped component needs, with room to grow.
const IMAGE_ROOM: u64 = 64 << 20;

/// Whether this process's file-size limit leaves room for the images.
pub fn images_allowed() -> bool {
    let allowed = room_for_images(file_size_limit());
    if !allowed {
        tracing::info!(
            "the file-size limit is under {} MiB: instances copy their memory instead of mapping an image",
            IMAGE_ROOM >> 20
        );
    }
    allowed
}

/// The soft `RLIMIT_FSIZE` in bytes, `None` when unlimited (or unknown).
fn file_size_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `lim` is a valid, writable rlimit for the call to fill.
    let rc = unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut lim) };
    (rc == 0 && lim.rlim_cur != libc::RLIM_INFINITY).then_some(lim.rlim_cur)
}

/// The decision, apart from reading the limit.
fn room_for_images(limit: Option<u64>) -> bool {
    limit.is_none_or(|bytes| bytes >= IMAGE_ROOM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_only_where_the_file_size_limit_leaves_room() {
        assert!(room_for_images(None));
        assert!(room_for_images(Some(IMAGE_ROOM)));
        assert!(room_for_images(Some(u64::MAX - 1)));
        assert!(!room_for_images(Some(IMAGE_ROOM - 1)));
        assert!(!room_for_images(Some(300_000)));
        assert!(!room_for_images(Some(0)));
    }
}
