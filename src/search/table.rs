//! The transposition table: proven lower bounds per position, shared by all iterations
//! (and all threads) of a search.
//!
//! Entries are two words, `key ^ data` and `data`, written and read without locks: a torn
//! write between threads is detected because the two no longer agree with the key
//! (the "lockless hashing" of Hyatt and Mann). Buckets of four entries; a new position
//! replaces the entry that cost the least to compute. The full 64-bit key is kept, so a wrong
//! hit needs a 64-bit hash collision.
//!
//! The table starts small and grows up to its memory budget: between iterations the
//! search asks it to ([`Table::grow`]), and when it is more than a sixteenth full its
//! entries move to a table where they would be a sixteenth. The memory is zeroed pages
//! that the operating system hands out when first written, so a table costs what it
//! holds: a gigabyte table taken whole would be zeroed page by page as a short search
//! scatters its entries over it, which took a third of the time of a half-second search.

use std::sync::atomic::Ordering::Relaxed;

use crate::zeroed::Zeroed;

const WAYS: usize = 4;
const ENTRY_BYTES: usize = 16;

/// A lock-free table of `key → (lower bound, work)`.
pub struct Table {
    slots: Zeroed,
    buckets_mask: usize,
    /// The most entries it may grow to.
    limit: usize,
}

/// Entries a table starts with (16 MiB) when its budget allows.
const START_ENTRIES: usize = 1 << 20;

#[inline]
fn pack(bound: u32, work: u32) -> u64 {
    // bit 63 marks an occupied entry, so that data is never 0
    (1 << 63) | ((work.min(0xffff) as u64) << 32) | bound as u64
}

/// The `(bound, work)` of an entry's data word (the inverse of [`pack`]).
#[inline]
fn unpack(d: u64) -> (u32, u32) {
    (d as u32, ((d >> 32) & 0xffff) as u32)
}

impl Table {
    /// A table that may grow to `memory` bytes.
    pub fn new(memory: usize) -> Table {
        // the largest power of two of entries that fits the budget
        let e = (memory / ENTRY_BYTES).max(WAYS);
        let limit = if e.is_power_of_two() {
            e
        } else {
            e.next_power_of_two() / 2
        };
        Table::with_entries(limit.min(START_ENTRIES), limit)
    }

    fn with_entries(n: usize, limit: usize) -> Table {
        Table {
            slots: Zeroed::words(2 * n),
            buckets_mask: n / WAYS - 1,
            limit,
        }
    }

    /// The share of entries in use, estimated from the first buckets.
    pub fn load(&self) -> f64 {
        let words = self.slots.as_words().len().min(1 << 14);
        let used = self.slots.as_words()[..words]
            .iter()
            .skip(1)
            .step_by(2)
            .filter(|d| d.load(Relaxed) != 0)
            .count();
        used as f64 / (words / 2) as f64
    }

    /// Grows the table, when more than a sixteenth full, to where it would be a sixteenth
    /// full (an iteration of a search takes several times the entries of the one
    /// before), up to its budget, moving every entry over. Needs the table to itself:
    /// call it between searches.
    pub fn grow(&mut self) {
        let load = self.load();
        if self.capacity() >= self.limit || load <= 1.0 / 16.0 {
            return;
        }
        let wanted = ((load * 16.0 * self.capacity() as f64) as usize).next_power_of_two();
        let bigger = Table::with_entries(wanted.min(self.limit), self.limit);
        for pair in self.slots.as_words().chunks_exact(2) {
            let d = pair[1].load(Relaxed);
            if d != 0 {
                let key = pair[0].load(Relaxed) ^ d;
                let (bound, work) = unpack(d);
                bigger.store(key, bound, work);
            }
        }
        *self = bigger;
    }

    /// Entries the table holds now.
    pub fn capacity(&self) -> usize {
        self.slots.as_words().len() / 2
    }

    /// Bytes the table takes now.
    pub fn bytes(&self) -> usize {
        self.capacity() * ENTRY_BYTES
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.buckets_mask) * WAYS * 2
    }

    /// Asks the CPU to start loading `key`'s bucket (a later [`Table::get`] then waits less).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        self.slots.prefetch(self.bucket(key));
    }

    /// The stored lower bound for `key`, or 0.
    #[inline]
    pub fn get(&self, key: u64) -> u32 {
        let b = self.bucket(key);
        for w in 0..WAYS {
            let kx = self.slots.as_words()[b + 2 * w].load(Relaxed);
            let d = self.slots.as_words()[b + 2 * w + 1].load(Relaxed);
            if d != 0 && kx ^ d == key {
                return unpack(d).0;
            }
        }
        0
    }

    /// Records that `key` needs at least `bound` more moves; `work` ranks how costly it was
    /// to learn (the cheapest is replaced first). Keeps the larger bound.
    #[inline]
    pub fn store(&self, key: u64, bound: u32, work: u32) {
        let b = self.bucket(key);
        let mut victim = 0;
        let mut victim_work = u32::MAX;
        for w in 0..WAYS {
            let kx = self.slots.as_words()[b + 2 * w].load(Relaxed);
            let d = self.slots.as_words()[b + 2 * w + 1].load(Relaxed);
            if d != 0 && kx ^ d == key {
                let (old, old_work) = unpack(d);
                if old < bound || (old == bound && old_work < work) {
                    let nd = pack(bound, work);
                    self.slots.as_words()[b + 2 * w].store(key ^ nd, Relaxed);
                    self.slots.as_words()[b + 2 * w + 1].store(nd, Relaxed);
                }
                return;
            }
            let wk = if d == 0 { 0 } else { unpack(d).1 + 1 };
            if wk < victim_work {
                victim_work = wk;
                victim = w;
            }
        }
        let nd = pack(bound, work);
        self.slots.as_words()[b + 2 * victim].store(key ^ nd, Relaxed);
        self.slots.as_words()[b + 2 * victim + 1].store(nd, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_larger_bound() {
        let t = Table::new(1 << 24);
        assert_eq!(t.capacity(), 1 << 20);
        for k in 0..100_000u64 {
            let key = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            t.store(key, 5, 1);
            t.store(key, 3, 1);
        }
        let kept = (0..100_000u64)
            .filter(|k| t.get(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)) == 5)
            .count();
        // A tenth full with four ways per bucket: (almost) everything fits.
        assert!(kept > 99_000, "kept {kept}");
        assert_eq!(t.get(12345), 0);
    }

    #[test]
    fn grows_within_its_budget_and_keeps_its_entries() {
        let mut t = Table::new(64 << 20);
        assert_eq!(t.capacity(), START_ENTRIES);
        let keys: Vec<u64> = (0..START_ENTRIES as u64 * 3 / 4)
            .map(|k| (k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, 1 + (i % 7) as u32, 2);
        }
        let held = |t: &Table| {
            keys.iter()
                .enumerate()
                .filter(|&(i, &k)| t.get(k) == 1 + (i % 7) as u32)
                .count()
        };
        let before = held(&t);
        assert!(t.load() > 0.5);
        t.grow();
        assert_eq!(
            t.capacity(),
            4 * START_ENTRIES,
            "the budget allows four times"
        );
        assert_eq!(held(&t), before, "every entry moved over");
        t.grow();
        assert_eq!(t.capacity(), 4 * START_ENTRIES, "at its budget: stays");
        let mut small = Table::new(1 << 30);
        small.store(1, 1, 1);
        small.grow();
        assert_eq!(small.capacity(), START_ENTRIES, "nearly empty: stays");
    }

    #[test]
    fn a_full_table_replaces_the_cheapest_entry() {
        let t = Table::new(WAYS * ENTRY_BYTES); // one bucket of four
        assert_eq!(t.capacity(), WAYS);
        for (k, work) in [(1u64 << 40, 9), (2 << 40, 1), (3 << 40, 7), (4 << 40, 8)] {
            t.store(k, 3, work);
        }
        t.store(5 << 40, 4, 5);
        assert_eq!(t.get(2 << 40), 0, "the cheapest entry made room");
        assert_eq!(t.get(1 << 40), 3);
        assert_eq!(t.get(5 << 40), 4);
    }
}
