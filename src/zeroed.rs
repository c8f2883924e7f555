//! Zeroed memory from the operating system, for the large tables that a search's threads
//! share and read at random: the transposition table ([`crate::search`]) and the edge
//! bound's memos ([`crate::edge`]).
//!
//! On Linux the memory is mapped anonymously, so the operating system hands out zeroed
//! pages as they are first written (a large table costs memory only as it fills, and
//! nothing to clear at the start), and marked for transparent huge pages: that cuts the
//! page faults of a gigabyte table from a quarter million to a few hundred, and the
//! misses in the address translation cache of reads scattered over it (blocks of 2 MiB
//! or more; a smaller one would take a whole huge page). Elsewhere it is a zeroed vector.

use std::sync::atomic::{AtomicU64, AtomicU8};

/// A block of zeroed memory, read and written as atomic words or bytes.
pub struct Zeroed {
    ptr: *mut AtomicU64,
    /// Its length in words.
    len: usize,
    #[cfg(target_os = "linux")]
    map: (usize, usize),
    #[cfg(not(target_os = "linux"))]
    _vec: Vec<AtomicU64>,
}

// SAFETY: the memory is only reached through atomics; the pointer is owned and freed
// once, on drop.
unsafe impl Send for Zeroed {}
// SAFETY: shared access goes only through atomic operations.
unsafe impl Sync for Zeroed {}

impl std::fmt::Debug for Zeroed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Zeroed({} words)", self.len)
    }
}

impl Zeroed {
    /// `len` zeroed words.
    #[cfg(target_os = "linux")]
    pub fn words(len: usize) -> Zeroed {
        const HUGE: usize = 2 << 20;
        let bytes = len.max(1) * 8;
        let map_len = bytes + HUGE;
        // SAFETY: an anonymous private mapping with no address hint; checked for failure.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        assert!(base != libc::MAP_FAILED, "cannot map {bytes} bytes");
        // Start on a huge-page boundary (the mapping has room for it).
        let aligned = (base as usize).next_multiple_of(HUGE);
        if bytes >= HUGE {
            // (a smaller block would take a whole huge page for what it uses of it)
            // SAFETY: `aligned..aligned + bytes` lies within the mapping; madvise is a hint.
            unsafe { libc::madvise(aligned as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) };
        }
        Zeroed {
            ptr: aligned as *mut AtomicU64,
            len,
            map: (base as usize, map_len),
        }
    }

    /// `len` zeroed words.
    #[cfg(not(target_os = "linux"))]
    pub fn words(len: usize) -> Zeroed {
        let mut v: Vec<AtomicU64> = (0..len).map(|_| AtomicU64::new(0)).collect();
        Zeroed {
            ptr: v.as_mut_ptr(),
            len,
            _vec: v,
        }
    }

    /// At least `len` zeroed bytes (whole words).
    pub fn bytes(len: usize) -> Zeroed {
        Zeroed::words(len.div_ceil(8))
    }

    /// The memory as words.
    #[inline(always)]
    pub fn as_words(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` points to `len` zeroed words that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// The memory as bytes.
    #[inline(always)]
    pub fn as_bytes(&self) -> &[AtomicU8] {
        // SAFETY: the same memory as `as_words`; `AtomicU8` has the size and bit validity
        // of `u8` and alignment 1.
        unsafe { std::slice::from_raw_parts(self.ptr as *const AtomicU8, self.len * 8) }
    }

    /// Asks the CPU to start loading the cache line of word `i` (a read of it soon after
    /// then waits less).
    #[inline(always)]
    pub fn prefetch(&self, i: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.ptr.wrapping_add(i) as *const i8;
            // SAFETY: prefetching is a hint and never faults, whatever the address.
            unsafe { core::arch::x86_64::_mm_prefetch(p, core::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }
}

#[cfg(target_os = "linux")]
impl Drop for Zeroed {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly the mapping made in `words`, once.
        unsafe { libc::munmap(self.map.0 as *mut libc::c_void, self.map.1) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn starts_zeroed_and_keeps_what_is_written() {
        let z = Zeroed::bytes(3 << 20);
        assert!(z.as_bytes().len() >= 3 << 20);
        assert!(z
            .as_words()
            .iter()
            .step_by(4099)
            .all(|w| w.load(Relaxed) == 0));
        z.as_words()[5].store(0x0102, Relaxed);
        assert_eq!(z.as_bytes()[40].load(Relaxed), 2);
        assert_eq!(z.as_bytes()[41].load(Relaxed), 1);
        z.as_bytes()[47].store(0x80, Relaxed);
        assert_eq!(z.as_words()[5].load(Relaxed), 0x8000_0000_0000_0102);
    }
}
