//! Zeroed memory from the operating system, for the large tables that a search's threads
//! share and read at random: the transposition table ([`crate::search`]) and the edge
//! bound's memos ([`crate::edge`]).
//!
//! The memory is mapped anonymously ([`memmap2`]), so the operating system hands out
//! zeroed pages as they are first written: a large table costs memory only as it fills,
//! and nothing to clear at the start. A block of 2 MiB or more starts on a 2 MiB boundary
//! and, on Linux, is marked for transparent huge pages: a gigabyte table then takes 512
//! page faults rather than 262,144, and reads scattered over it miss the address
//! translation cache far less often. A smaller block is not marked: it would take a whole
//! huge page for what it uses of it. A table written only here and there (an edge memo
//! indexed by a slice's positions, of which a search reaches few) is asked for ordinary
//! pages instead ([`Zeroed::sparse_words`]): each entry written would otherwise cost the
//! time to zero a whole 2 MiB page.
//!
//! On Linux a sparse block is mapped shared, from a memory file of its own, rather than
//! private. A private page that is read before it is ever written is mapped to the
//! system's one zero page, and the write that follows must replace that mapping, which
//! drops the old translation on every core the process runs on: an interrupt to each of
//! them (dear on a virtual machine), once per page, and a memo reads each entry before
//! it writes it. A shared page is made at its first touch, read or write, and mapped
//! writable at once. Where the memory file cannot be made, the block is private.
//!
//! A map the operating system refuses is an error ([`Zeroed::try_words`]); [`Zeroed::words`]
//! panics with a message saying how much was asked.

use std::io;
use std::sync::atomic::{AtomicU64, AtomicU8};

use memmap2::{MmapMut, MmapOptions};

/// A huge page: blocks of at least this size start on a multiple of it.
const HUGE: usize = 2 << 20;

/// A block of zeroed memory, read and written as atomic words or bytes.
pub struct Zeroed {
    /// The mapping: anonymous, the block and up to [`HUGE`] bytes before it; or, for a
    /// sparse block on Linux, the block alone, shared from its memory file.
    map: MmapMut,
    /// Where the block starts in the mapping: at a huge-page boundary of the address
    /// space, or 0 for a memory file's mapping (which starts on a page boundary).
    offset: usize,
    /// Its length in words.
    len: usize,
}

impl std::fmt::Debug for Zeroed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Zeroed({} words)", self.len)
    }
}

impl Zeroed {
    /// `len` zeroed words, or why the operating system would not map them.
    pub fn try_words(len: usize) -> io::Result<Zeroed> {
        Zeroed::map(len, true)
    }

    /// `len` zeroed words on ordinary pages (asked not to be huge), for a table that is
    /// written sparsely: most of it stays unwritten for the whole search, and an entry
    /// written then costs a 4 KiB page to zero rather than a 2 MiB one (an edge memo
    /// indexed by a slice's positions, of which a search reaches few).
    pub fn sparse_words(len: usize) -> Zeroed {
        Zeroed::expect_map(len, false)
    }

    /// At least `len` zeroed bytes (whole words) on ordinary pages, as
    /// [`Zeroed::sparse_words`].
    pub fn sparse_bytes(len: usize) -> Zeroed {
        Zeroed::sparse_words(len.div_ceil(8))
    }

    /// `len` zeroed words, on huge pages where `huge` and the block is large enough, else
    /// on pages asked not to be huge.
    fn map(len: usize, huge: bool) -> io::Result<Zeroed> {
        let too_large = || io::Error::new(io::ErrorKind::OutOfMemory, "the size overflows");
        let bytes = len.max(1).checked_mul(8).ok_or_else(too_large)?;
        #[cfg(target_os = "linux")]
        if !huge {
            if let Ok(map) = Zeroed::shared(bytes) {
                return Ok(Zeroed {
                    map,
                    offset: 0,
                    len,
                });
            }
        }
        // Room to start on a huge-page boundary. Pages that are never written cost nothing.
        let map_len = bytes.checked_add(HUGE).ok_or_else(too_large)?;
        let map = MmapOptions::new()
            .len(map_len)
            .no_reserve_swap()
            .map_anon()
            .map_err(|e| io::Error::new(e.kind(), format!("cannot map {bytes} bytes: {e}")))?;
        let base = map.as_ptr() as usize;
        let offset = base.next_multiple_of(HUGE) - base;
        #[cfg(target_os = "linux")]
        if bytes >= HUGE {
            // Only a hint: with pages of either size the memory works the same.
            let advice = if huge {
                memmap2::Advice::HugePage
            } else {
                memmap2::Advice::NoHugePage
            };
            let _ = map.advise_range(advice, offset, bytes);
        }
        Ok(Zeroed { map, offset, len })
    }

    /// `bytes` zeroed bytes mapped shared from a memory file of their own (Linux only).
    #[cfg(target_os = "linux")]
    fn shared(bytes: usize) -> io::Result<MmapMut> {
        use std::os::fd::FromRawFd;
        // SAFETY: a valid C string and flags; the result is checked before use.
        let fd = unsafe { libc::memfd_create(c"tumble-zeroed".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` is a new descriptor that nothing else owns.
        let file = unsafe { std::fs::File::from_raw_fd(fd) };
        file.set_len(bytes as u64)?;
        // SAFETY: the file is this map's alone and never resized while mapped.
        unsafe { MmapOptions::new().len(bytes).map_mut(&file) }
    }

    /// `len` zeroed words. Panics, saying how much, if the operating system will not map
    /// them ([`Zeroed::try_words`] returns the error instead).
    pub fn words(len: usize) -> Zeroed {
        Zeroed::expect_map(len, true)
    }

    /// [`Zeroed::map`], panicking with how much was asked if the map is refused.
    fn expect_map(len: usize, huge: bool) -> Zeroed {
        Zeroed::map(len, huge)
            .unwrap_or_else(|e| panic!("zeroed memory for {len} words of a table: {e}"))
    }

    /// At least `len` zeroed bytes (whole words), or why they could not be mapped.
    pub fn try_bytes(len: usize) -> io::Result<Zeroed> {
        Zeroed::try_words(len.div_ceil(8))
    }

    /// At least `len` zeroed bytes (whole words).
    pub fn bytes(len: usize) -> Zeroed {
        Zeroed::words(len.div_ceil(8))
    }

    /// Makes every page of words `range` resident by writing to it, in order, asking `stop`
    /// before each 2 MiB (a huge page); says whether it got to the end. A table about to
    /// write all over a part of its block (a growth moving its entries there) touches its
    /// pages here first: each first write to a page costs the time to zero it, a 2 MiB
    /// huge page a good part of a millisecond and more while the kernel compacts memory to
    /// find one, and writes scattered over the part would pay that for many pages between
    /// two questions whether to stop. Here at most one huge page (or 512 ordinary ones)
    /// lies between two questions.
    ///
    /// Each page is touched by writing its first word back as it is, a volatile read and
    /// write that the compiler may neither drop nor merge (an atomic that adds 0, say, is
    /// compiled to a read, and a read of a page never written maps the shared zero page
    /// and leaves the write fault for later). The block being borrowed mutably, no other
    /// thread writes the word in between.
    ///
    /// Pages are counted from the block's start, which lies on a huge-page boundary
    /// wherever its pages may be huge, so a question comes before the range's first page
    /// and before each page that begins a huge page: a range that starts inside one is not
    /// cut into chunks that straddle two.
    pub fn fault_in(&mut self, range: std::ops::Range<usize>, stop: &dyn Fn() -> bool) -> bool {
        const PAGE_WORDS: usize = 4096 / 8;
        const HUGE_WORDS: usize = HUGE / 8;
        let words = self.as_words();
        if range.is_empty() {
            return true;
        }
        let (first, last) = (range.start / PAGE_WORDS, (range.end - 1) / PAGE_WORDS);
        for page in first..=last {
            if (page == first || (page * PAGE_WORDS).is_multiple_of(HUGE_WORDS)) && stop() {
                return false;
            }
            // the page's first word within the range
            let p = words[(page * PAGE_WORDS).max(range.start)].as_ptr();
            // SAFETY: `p` is a valid, aligned word of the block, which `&mut self` keeps
            // from every other thread while it is read and written back.
            unsafe { p.write_volatile(p.read_volatile()) };
        }
        true
    }

    /// The first word.
    #[inline(always)]
    fn ptr(&self) -> *const AtomicU64 {
        self.map.as_ptr().wrapping_add(self.offset) as *const AtomicU64
    }

    /// The memory as words.
    #[inline(always)]
    pub fn as_words(&self) -> &[AtomicU64] {
        // SAFETY: the mapping holds `offset + 8 * len` bytes (`offset < HUGE`), zeroed or
        // written only through these atomics, aligned (page-aligned mapping, `offset` 0
        // or a multiple of the page size), and lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr(), self.len) }
    }

    /// The memory as bytes.
    #[inline(always)]
    pub fn as_bytes(&self) -> &[AtomicU8] {
        // SAFETY: the same memory as `as_words`; `AtomicU8` has the size and bit validity
        // of `u8` and alignment 1.
        unsafe { std::slice::from_raw_parts(self.ptr() as *const AtomicU8, self.len * 8) }
    }

    /// Asks the CPU to start loading the cache line of word `i` (a read of it soon after
    /// then waits less).
    #[inline(always)]
    pub fn prefetch(&self, i: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.ptr().wrapping_add(i) as *const i8;
            // SAFETY: prefetching is a hint and never faults, whatever the address.
            unsafe { core::arch::x86_64::_mm_prefetch(p, core::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    /// Dense and sparse blocks alike (the sparse one shared from a memory file on Linux):
    /// zero where never written, read before written, and what is written is read back,
    /// from either view and from another thread.
    #[test]
    fn starts_zeroed_and_keeps_what_is_written() {
        let mut checked = 0;
        for z in [Zeroed::bytes(3 << 20), Zeroed::sparse_bytes(3 << 20)] {
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
            let far = z.as_bytes().len() - 1;
            std::thread::scope(|s| {
                s.spawn(|| z.as_bytes()[far].store(7, Relaxed));
            });
            assert_eq!(z.as_bytes()[far].load(Relaxed), 7);
            assert_eq!(z.as_bytes()[far - 1].load(Relaxed), 0);
            checked += 1;
        }
        assert_eq!(checked, 2);
    }

    #[test]
    fn blocks_of_a_huge_page_or_more_start_on_a_huge_page_boundary() {
        for words in [HUGE / 8, 3 * HUGE / 8 + 1] {
            let z = Zeroed::words(words);
            assert_eq!(z.as_words().len(), words);
            assert_eq!(z.as_words().as_ptr() as usize % HUGE, 0, "{words} words");
        }
        let small = Zeroed::bytes(100);
        assert_eq!(small.as_words().len(), 13);
        assert_eq!(small.as_words().as_ptr() as usize % 8, 0);
    }

    /// Faulting a range in keeps every word's value, asks to stop once per huge page of
    /// the range, and ends at the first yes; its pages are then resident.
    #[test]
    fn faulting_in_keeps_the_words_and_asks_to_stop_every_huge_page() {
        let huge_words = HUGE / 8;
        let mut checked = 0;
        for mut z in [
            Zeroed::words(3 * huge_words + 5),
            Zeroed::sparse_words(3 * huge_words + 5),
        ] {
            let len = z.as_words().len();
            for i in (0..len).step_by(1000) {
                z.as_words()[i].store(i as u64 + 1, Relaxed);
            }
            let asked = std::cell::Cell::new(0);
            let stop_at = |n: usize| {
                let asked = &asked;
                move || {
                    asked.set(asked.get() + 1);
                    asked.get() >= n
                }
            };
            // a range of two huge pages and a bit, off a page boundary: three questions
            assert!(z.fault_in(7..2 * huge_words + 100, &stop_at(usize::MAX)));
            assert_eq!(asked.get(), 3);
            asked.set(0);
            // from the middle of the first huge page into the third: one question for each
            // huge page it touches, three, where chunks of 2 MiB from its start make two
            assert!(z.fault_in(huge_words / 2..2 * huge_words + 10, &stop_at(usize::MAX)));
            assert_eq!(asked.get(), 3);
            asked.set(0);
            assert!(!z.fault_in(0..len, &stop_at(2)), "stopped at the 2nd");
            assert_eq!(asked.get(), 2);
            asked.set(0);
            assert!(
                z.fault_in(5..5, &stop_at(1)),
                "nothing to do, nothing asked"
            );
            assert_eq!(asked.get(), 0);
            for (i, x) in z.as_words().iter().enumerate() {
                let want = if i % 1000 == 0 { i as u64 + 1 } else { 0 };
                assert_eq!(x.load(Relaxed), want, "word {i}");
            }
            checked += 1;
        }
        assert_eq!(checked, 2);
    }

    #[test]
    fn a_size_past_the_address_space_is_an_error() {
        let err = Zeroed::try_words(usize::MAX / 4).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::OutOfMemory);
        assert!(
            Zeroed::try_words(1 << 58).is_err(),
            "2^61 bytes cannot be mapped"
        );
    }
}
