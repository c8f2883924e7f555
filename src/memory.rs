//! The process's memory as the operating system and the C allocator see it: how much the
//! machine has (the most a memory budget may be), and the allocator's call that keeps
//! freed memory from staying resident where one search hands over to another, so that the
//! process holds to its budget (`--memory`; see "Memory" in docs/architecture.md).

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
