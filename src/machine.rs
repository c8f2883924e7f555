//! What the machine gives this process, as the operating system and the C allocator see
//! it: its cores, how much memory it has (the most a memory budget may be), the process's
//! peak resident memory, a way to free large structures off the answer's path, and the
//! allocator's call that keeps freed memory from staying resident where one search hands
//! over to another, so that the process holds to its budget (`--memory`; see "Memory" in
//! docs/architecture.md).

use std::sync::OnceLock;

/// The number of cores this process may use (1 when it cannot be known).
///
/// Read once and kept: the standard library's answer on Linux reads the process's cgroup
/// files each time, and a board set asks for every board (each search's default options).
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The machine's memory and swap together, in MiB (`None` where the system does not say):
/// the most a memory budget can be given.
pub fn machine_mib() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: an all-zero `sysinfo` is a valid value, and `sysinfo` only writes to it.
        let mut info: libc::sysinfo = unsafe { std::mem::zeroed() };
        if unsafe { libc::sysinfo(&mut info) } == 0 {
            let bytes = (info.totalram as u128 + info.totalswap as u128) * info.mem_unit as u128;
            return usize::try_from(bytes >> 20).ok();
        }
    }
    None
}

/// The peak resident memory of this process so far, in MiB (`VmHWM` of
/// `/proc/self/status`; `None` where the system does not say).
///
/// Not `getrusage`'s `ru_maxrss`: Linux counts in it the peak of the memory this process's
/// `exec` replaced, which for a process spawned by `vfork` is its parent's.
pub fn peak_resident_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Drops `value`, which holds `bytes` of memory, on a thread of its own when that is
/// [`ASIDE_BYTES`] or more, so that an answer need not wait while the pages of a search's
/// large structures are handed back to the operating system (unmapping hundreds of MiB
/// takes tens of milliseconds, past a time limit the search has just kept). Smaller values,
/// and any where no thread can be started, are dropped here.
pub fn drop_aside<T: Send + 'static>(value: T, bytes: usize) {
    if bytes < ASIDE_BYTES {
        return drop(value);
    }
    // A spawn that fails drops its closure, and `value` with it, on this thread.
    let _ = std::thread::Builder::new()
        .name("drop".into())
        .spawn(move || drop(value));
}

/// The least memory [`drop_aside`] frees on a thread of its own: below it, freeing takes a
/// few milliseconds at most, and a board set of small searches would start a thread for
/// each.
pub const ASIDE_BYTES: usize = 16 << 20;

/// Asks the C allocator to give the operating system back the free memory of its heaps:
/// for a search that goes on with another method once one has filled its memory. glibc
/// keeps freed blocks in its heap for reuse (and, once a large mapped block is freed,
/// serves later blocks up to that size from the heap too), so the beams' or the A*'s
/// freed structures would otherwise stay resident beside what comes next. Only here, at a
/// hand-over, is that worth a call: giving every large block back as it is freed would
/// make each board of a set fault its pages in afresh.
pub fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only returns free memory of the allocator's heaps.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Sends, when dropped, the name of the thread that drops it.
    struct Tell(mpsc::Sender<Option<String>>);

    impl Drop for Tell {
        fn drop(&mut self) {
            let _ = self.0.send(std::thread::current().name().map(String::from));
        }
    }

    #[test]
    fn large_values_are_dropped_aside_and_small_ones_here() {
        let here = std::thread::current().name().map(String::from);
        let mut cases = 0;
        for (bytes, aside) in [(0, false), (ASIDE_BYTES - 1, false), (ASIDE_BYTES, true)] {
            let (tx, rx) = mpsc::channel();
            drop_aside(Tell(tx), bytes);
            let by = rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .expect("dropped, here or aside");
            if aside {
                assert_eq!(by.as_deref(), Some("drop"), "{bytes} bytes");
            } else {
                assert_eq!(by, here, "{bytes} bytes");
            }
            cases += 1;
        }
        assert_eq!(cases, 3);
    }
}
