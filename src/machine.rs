//! What the machine gives this process, as the operating system and the C allocator see
//! it: its cores, how much memory it has (the most a memory budget may be), the process's
//! peak resident memory, and the allocator's call that keeps freed memory from staying
//! resident where one search hands over to another, so that the process holds to its budget
//! (`--memory`; see "Memory" in docs/architecture.md).

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
