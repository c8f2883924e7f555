//! The process's memory as the operating system and the C allocator see it: how much the
//! machine has (the most a memory budget may be), and the allocator's settings that keep
//! freed memory from staying resident, so that the process holds to its budget
//! (`--memory`; see "Memory" in docs/architecture.md).

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

/// Asks the C allocator to give every block of 256 KiB or more its own mapping, returned
/// to the operating system when freed, for the life of the process; call it at start-up,
/// before any threads. By default glibc raises that threshold after the first large block
/// is freed (up to 32 MiB) and keeps later large blocks in its heap, where freed memory
/// may stay resident: a search that frees one large structure and then builds another
/// (Flood-It's A* handing its memory to the deepening that goes on from it) would then hold
/// both at once and pass its memory budget. A fixed threshold turns that off.
pub fn give_back_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes the allocator's settings; it is called before any
    // other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 10);
    }
}

/// Asks the C allocator to give the operating system back the free memory of its heaps:
/// for a search that goes on with another method once one has filled its memory (the
/// beams' many small blocks, freed, would otherwise stay resident beside what comes next).
pub fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only returns free memory of the allocator's heaps.
    unsafe {
        libc::malloc_trim(0);
    }
}
