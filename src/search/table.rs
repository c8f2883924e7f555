//! The transposition table: proven lower bounds per position, shared by all iterations
//! (and all threads) of a search.
//!
//! Entries are two words, `key ^ data` and `data`, written and read without locks: a torn
//! write between threads is detected because the two no longer agree with the key
//! (the "lockless hashing" of Hyatt and Mann). Buckets of four entries; a new position
//! replaces the entry that cost the least to compute.
//!
//! ## What a hit rests on
//! A position is looked up by two hashes ([`Key`]): the 64-bit [`Key::hash`], which picks
//! the bucket and is kept whole in the entry, and the independent 32-bit [`Key::check`],
//! kept in the entry's data word beside the bound. A hit needs both to match, so a bound
//! read for the wrong position needs two positions to agree on 96 independent hash bits.
//! With four entries compared per look-up, the odds of any false hit over `n` look-ups
//! are at most `4n / 2^96`: below `10^-16` for a trillion look-ups, far longer than any
//! search runs. A false hit is the only way the table could make a proof wrong (every
//! stored value is a proven lower bound of the position it was stored for), and
//! [`Exact`](super::Exact) removes even that: it keys on the position itself.
//!
//! The table starts small and grows up to its memory budget: between iterations the
//! search asks it to ([`Table::grow`]), and when it is more than a sixteenth full it
//! grows, in place, to where it would be a sixteenth full. Its block is mapped at the
//! budget's size from the start, as zeroed pages that the operating system hands out when
//! first written, so a table costs what it uses, never more than its budget.

use std::sync::atomic::Ordering::Relaxed;

use super::memo::Memo;
use crate::puzzle::{Key, INFINITE};
use crate::zeroed::Zeroed;

const WAYS: usize = 4;
const ENTRY_BYTES: usize = 16;

/// Buckets [`Table`]'s growth moves between two questions whether to stop: at most 64
/// entries (their pages are written before the move, [`Zeroed::fault_in`]).
const GROW_CHECK: usize = 16;

/// A lock-free table of `key → (lower bound, work)`.
pub struct Table {
    slots: Zeroed,
    buckets_mask: usize,
    /// The most entries it may grow to.
    limit: usize,
}

/// Entries a table starts with (1 MiB) when its budget allows: a page costs the time to
/// zero it when first written, which on a board proven in a tenth of a second is a large
/// share of the time; a search that needs more grows it between iterations.
const START_ENTRIES: usize = 1 << 16;

/// The data word: bit 63 marks an occupied entry (so that data is never 0), bits 31..63
/// the check hash, bits 16..31 the work, bits 0..16 the bound.
const BOUND_BITS: u32 = 16;
const WORK_BITS: u32 = 15;
/// The stored bound that stands for [`INFINITE`] (unsolvable).
const BOUND_INFINITE: u64 = (1 << BOUND_BITS) - 1;

#[inline]
fn pack(check: u32, bound: u32, work: u32) -> u64 {
    // A bound too large for its field is stored smaller, which is still a lower bound;
    // only INFINITE keeps its meaning. No puzzle here comes near: a bound counts moves,
    // at most one per tile.
    let bound = if bound >= INFINITE {
        BOUND_INFINITE
    } else {
        (bound as u64).min(BOUND_INFINITE - 1)
    };
    let work = (work as u64).min((1 << WORK_BITS) - 1);
    (1 << 63) | ((check as u64) << (BOUND_BITS + WORK_BITS)) | (work << BOUND_BITS) | bound
}

/// The `(check, bound, work)` of an entry's data word (the inverse of [`pack`]).
#[inline]
fn unpack(d: u64) -> (u32, u32, u32) {
    let bound = d & BOUND_INFINITE;
    let bound = if bound == BOUND_INFINITE {
        INFINITE
    } else {
        bound as u32
    };
    let work = ((d >> BOUND_BITS) & ((1 << WORK_BITS) - 1)) as u32;
    ((d >> (BOUND_BITS + WORK_BITS)) as u32, bound, work)
}

impl Table {
    /// A table that may grow to `memory` bytes (at least one bucket).
    pub fn new(memory: usize) -> Table {
        // the largest power of two of entries that fits the budget
        let e = (memory / ENTRY_BYTES).max(WAYS);
        let limit = 1 << e.ilog2();
        Table::with_entries(limit.min(START_ENTRIES), limit)
    }

    /// A table using `n` entries of a block of `limit` (both powers of two, at least a
    /// bucket): the rest of the block is mapped but never written until the table grows
    /// into it, so it costs no memory until then. A block the operating system refuses
    /// (under a limit on the address space, say) is asked for again at half the size,
    /// down to `n` entries: a smaller table costs the search time, never its answer.
    fn with_entries(n: usize, limit: usize) -> Table {
        debug_assert!(n.is_power_of_two() && limit.is_power_of_two() && WAYS <= n && n <= limit);
        let mut limit = limit;
        let slots = loop {
            match Zeroed::try_words(2 * limit) {
                Ok(slots) => break slots,
                Err(_) if limit > n => limit /= 2,
                Err(_) => break Zeroed::words(2 * limit),
            }
        };
        Table {
            slots,
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

    /// Entries the table holds now.
    pub fn capacity(&self) -> usize {
        (self.buckets_mask + 1) * WAYS
    }

    /// Bytes the table takes now.
    pub fn bytes(&self) -> usize {
        self.capacity() * ENTRY_BYTES
    }

    #[inline]
    fn bucket(&self, hash: u64) -> usize {
        ((hash as usize) & self.buckets_mask) * WAYS * 2
    }

    /// The stored lower bound for `key`, or 0.
    #[inline]
    pub fn lookup(&self, key: Key) -> u32 {
        self.lookup_with(key.hash, || key.check)
    }

    /// The stored lower bound for the position whose hash is `hash` and whose check is
    /// `check()` (called only when an entry has that hash), or 0.
    #[inline]
    fn lookup_with(&self, hash: u64, check: impl FnOnce() -> u32) -> u32 {
        let b = self.bucket(hash);
        let words = self.slots.as_words();
        for w in 0..WAYS {
            let kx = words[b + 2 * w].load(Relaxed);
            let d = words[b + 2 * w + 1].load(Relaxed);
            if d != 0 && kx ^ d == hash {
                let (stored, bound, _) = unpack(d);
                // Another position with the same 64-bit hash: not ours.
                return if stored == check() { bound } else { 0 };
            }
        }
        0
    }

    /// Records that `key` needs at least `bound` more moves; `work` ranks how costly it was
    /// to learn (the cheapest is replaced first). Keeps the larger bound.
    #[inline]
    pub fn insert(&self, key: Key, bound: u32, work: u32) {
        let b = self.bucket(key.hash);
        let words = self.slots.as_words();
        let mut victim = 0;
        let mut victim_work = u32::MAX;
        for w in 0..WAYS {
            let kx = words[b + 2 * w].load(Relaxed);
            let d = words[b + 2 * w + 1].load(Relaxed);
            if d != 0 && kx ^ d == key.hash {
                let (check, old, old_work) = unpack(d);
                if check == key.check && (old > bound || (old == bound && old_work >= work)) {
                    return;
                }
                // Ours with a smaller bound, or another position with the same 64-bit
                // hash: this entry is the one to replace (one entry per hash keeps `get`
                // from reading past it).
                victim = w;
                break;
            }
            let wk = if d == 0 { 0 } else { unpack(d).2 + 1 };
            if wk < victim_work {
                victim_work = wk;
                victim = w;
            }
        }
        let nd = pack(key.check, bound, work);
        words[b + 2 * victim].store(key.hash ^ nd, Relaxed);
        words[b + 2 * victim + 1].store(nd, Relaxed);
    }
}

impl<S> Memo<S> for Table {
    #[inline]
    fn get(&self, _s: &S, hash: u64, check: impl FnOnce() -> u32) -> u32 {
        self.lookup_with(hash, check)
    }

    #[inline]
    fn store(&self, _s: &S, key: Key, bound: u32, work: u32) {
        self.insert(key, bound, work)
    }

    #[inline(always)]
    fn prefetch(&self, hash: u64) {
        self.slots.prefetch(self.bucket(hash));
    }

    /// Grows the table, when more than a sixteenth full, to where it would be a sixteenth
    /// full (an iteration of a search takes several times the entries of the one
    /// before), up to its budget. It grows in place, into the unwritten rest of its block,
    /// so it never holds more than its budget, even while growing: with `n` buckets
    /// becoming `n·2^j`, an entry in bucket `b` belongs in bucket `hash mod n·2^j`, which
    /// is `b + i·n` for some `i < 2^j`. For `i = 0` it stays; otherwise its new bucket lies
    /// beyond the old ones, still empty, and receives entries from bucket `b` alone (`b`
    /// is `hash mod n`), so at most a bucket of them: every entry keeps its place.
    ///
    /// Moving the entries writes all over the new part, and each page of it costs the
    /// time to zero it when first written: a tenth of a second or more for a table of a
    /// few hundred MiB, on one thread. So the new part's pages are written first, in
    /// order ([`Zeroed::fault_in`], asking `stop` every huge page), and then `stop` is
    /// asked every `GROW_CHECK` buckets of the move; once it says so the entries not yet
    /// moved are dropped instead (a lost entry only costs its search again), which reads
    /// only the old part: a search stopped by its time limit does not wait for the move.
    /// Every entry left is then in its bucket, as the next growth assumes.
    fn grow(&mut self, stop: &dyn Fn() -> bool) {
        let load = self.load();
        if self.capacity() >= self.limit || load <= 1.0 / 16.0 {
            return;
        }
        let wanted = ((load * 16.0 * self.capacity() as f64) as usize).next_power_of_two();
        let old_buckets = self.buckets_mask + 1;
        self.buckets_mask = wanted.min(self.limit) / WAYS - 1;
        let new_buckets = self.buckets_mask + 1;
        // The moved entries land all over the new part (a sixteenth of it filled, spread
        // by the hash), so nearly every page of it is written: written first, in order,
        // it costs no more, and the question whether to stop comes every huge page.
        let mut stopped = !self
            .slots
            .fault_in(old_buckets * WAYS * 2..new_buckets * WAYS * 2, stop);
        let words = self.slots.as_words();
        for b in 0..old_buckets {
            if b % GROW_CHECK == 0 && !stopped {
                stopped = stop();
            }
            for w in 0..WAYS {
                let at = (b * WAYS + w) * 2;
                let d = words[at + 1].load(Relaxed);
                if d == 0 {
                    continue;
                }
                let hash = words[at].load(Relaxed) ^ d;
                let to = self.bucket(hash);
                if to == b * WAYS * 2 {
                    continue;
                }
                if !stopped {
                    let free = (0..WAYS)
                        .map(|v| to + 2 * v)
                        .find(|&t| words[t + 1].load(Relaxed) == 0)
                        .expect("a new bucket takes the entries of one old bucket at most");
                    words[free].store(words[at].load(Relaxed), Relaxed);
                    words[free + 1].store(d, Relaxed);
                }
                words[at].store(0, Relaxed);
                words[at + 1].store(0, Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn key(k: u64) -> Key {
        let hash = k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Key {
            hash,
            check: (hash >> 17) as u32 ^ 0x5bd1_e995,
        }
    }

    #[test]
    fn keeps_the_larger_bound() {
        let t = Table::with_entries(1 << 20, 1 << 20);
        for k in 0..100_000u64 {
            t.insert(key(k), 5, 1);
            t.insert(key(k), 3, 1);
        }
        let kept = (0..100_000u64).filter(|&k| t.lookup(key(k)) == 5).count();
        // A tenth full with four ways per bucket: (almost) everything fits.
        assert!(kept > 99_000, "kept {kept}");
        assert_eq!(t.lookup(key(1 << 40)), 0);
    }

    #[test]
    fn a_hash_match_with_another_check_is_a_miss() {
        let t = Table::new(1 << 20);
        let k = key(7);
        t.insert(k, 9, 3);
        assert_eq!(t.lookup(k), 9);
        let twin = Key {
            hash: k.hash,
            check: k.check ^ 1,
        };
        assert_eq!(t.lookup(twin), 0, "same 64-bit hash, other check: no hit");
        // The twin takes the entry over; the first position then reads nothing, never the
        // twin's bound.
        t.insert(twin, 4, 1);
        assert_eq!(t.lookup(twin), 4);
        assert_eq!(t.lookup(k), 0);
    }

    #[test]
    fn bounds_round_trip_through_the_entry() {
        let mut cases = 0;
        for bound in [0, 1, 17, 255, 1000, 65_534, 65_535, 1 << 20, INFINITE] {
            for check in [0, 1, 0x8000_0000, u32::MAX] {
                for work in [0, 1, 0x7fff, 1 << 20] {
                    let (c, b, w) = unpack(pack(check, bound, work));
                    assert_eq!(c, check);
                    assert_eq!(w, work.min(0x7fff));
                    if bound >= INFINITE {
                        assert_eq!(b, INFINITE);
                    } else {
                        assert!(b <= bound, "a stored bound never grows: {bound} -> {b}");
                        assert_eq!(b, bound.min(65_534));
                    }
                    cases += 1;
                }
            }
        }
        assert_eq!(cases, 9 * 4 * 4);
    }

    /// Fills a table of [`START_ENTRIES`] three quarters full, key `i` with bound
    /// `1 + i % 7`, and returns the keys.
    fn three_quarters_full(t: &Table) -> Vec<Key> {
        let keys: Vec<Key> = (0..START_ENTRIES as u64 * 3 / 4)
            .map(|k| key(k + 1))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            t.insert(k, 1 + (i % 7) as u32, 2);
        }
        keys
    }

    #[test]
    fn grows_within_its_budget_and_keeps_its_entries() {
        let mut t = Table::new(4 * START_ENTRIES * ENTRY_BYTES);
        assert_eq!(t.capacity(), START_ENTRIES);
        let keys = three_quarters_full(&t);
        let held = |t: &Table| {
            keys.iter()
                .enumerate()
                .filter(|&(i, &k)| t.lookup(k) == 1 + (i % 7) as u32)
                .count()
        };
        let before = held(&t);
        assert!(t.load() > 0.5);
        Memo::<()>::grow(&mut t, &|| false);
        assert_eq!(
            t.capacity(),
            4 * START_ENTRIES,
            "the budget allows four times"
        );
        assert_eq!(held(&t), before, "every entry moved over");
        Memo::<()>::grow(&mut t, &|| false);
        assert_eq!(t.capacity(), 4 * START_ENTRIES, "at its budget: stays");
        let mut small = Table::new(1 << 30);
        small.insert(key(1), 1, 1);
        Memo::<()>::grow(&mut small, &|| false);
        assert_eq!(small.capacity(), START_ENTRIES, "nearly empty: stays");
    }

    /// A growth told to stop part way keeps the entries already moved and those that
    /// stay in their bucket, drops the rest, and reads no entry wrong, leaving every
    /// entry in its bucket; the next growth moves every entry, old and new.
    #[test]
    fn a_growth_cut_short_drops_entries_and_keeps_the_rest_right() {
        let mut t = Table::new(64 * START_ENTRIES * ENTRY_BYTES);
        let keys = three_quarters_full(&t);
        let counts = |t: &Table| {
            let (mut right, mut wrong) = (0, 0);
            for (i, &k) in keys.iter().enumerate() {
                match t.lookup(k) {
                    0 => {}
                    v if v == 1 + (i % 7) as u32 => right += 1,
                    _ => wrong += 1,
                }
            }
            (right, wrong)
        };
        let (before, _) = counts(&t);
        // Told to stop at the 65th question. The new part's pages take the first eight (its
        // bytes from 1 MiB to 16 MiB touch eight huge pages, one question each), so 56 are
        // the move's: 56 · GROW_CHECK of the old buckets moved, about an eighteenth.
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > START_ENTRIES / WAYS / GROW_CHECK / 16
        };
        Memo::<()>::grow(&mut t, &stop);
        assert_eq!(asked.get(), 65, "no question after the stop");
        assert_eq!(t.capacity(), 16 * START_ENTRIES, "grown all the same");
        let (cut, wrong) = counts(&t);
        assert_eq!(wrong, 0, "no entry read wrong");
        assert!(
            cut > before / 20 && cut < before / 4,
            "kept {cut} of {before}: those moved before the stop and those in place"
        );
        // every entry left is in its bucket
        let words = t.slots.as_words();
        let (mut entries, mut misplaced) = (0, 0);
        for b in 0..t.capacity() / WAYS {
            for w in 0..WAYS {
                let at = (b * WAYS + w) * 2;
                let d = words[at + 1].load(Relaxed);
                if d != 0 {
                    entries += 1;
                    misplaced += usize::from(t.bucket(words[at].load(Relaxed) ^ d) != at - 2 * w);
                }
            }
        }
        assert_eq!((entries, misplaced), (cut, 0));
        // the search goes on filling it, and it grows again, moving every entry
        let more: Vec<Key> = (0..START_ENTRIES as u64)
            .map(|k| key(k + (1 << 32)))
            .collect();
        for &k in &more {
            t.insert(k, 3, 2);
        }
        let held = |t: &Table| {
            (
                counts(t),
                more.iter().filter(|&&k| t.lookup(k) == 3).count(),
            )
        };
        let before = held(&t);
        assert!(before.1 > more.len() * 99 / 100, "{before:?}");
        Memo::<()>::grow(&mut t, &|| false);
        assert!(t.capacity() > 16 * START_ENTRIES, "grown again");
        assert_eq!(held(&t), before, "every entry moved over");
    }

    #[test]
    fn a_full_table_replaces_the_cheapest_entry() {
        let t = Table::new(WAYS * ENTRY_BYTES); // one bucket of four
        assert_eq!(t.capacity(), WAYS);
        let k = |h: u64| Key { hash: h, check: 1 };
        for (h, work) in [(1u64 << 40, 9), (2 << 40, 1), (3 << 40, 7), (4 << 40, 8)] {
            t.insert(k(h), 3, work);
        }
        t.insert(k(5 << 40), 4, 5);
        assert_eq!(t.lookup(k(2 << 40)), 0, "the cheapest entry made room");
        assert_eq!(t.lookup(k(1 << 40)), 3);
        assert_eq!(t.lookup(k(5 << 40)), 4);
    }

    /// Threads store and read many keys at once in a table far too small for them (so
    /// entries are replaced all the time, and torn writes can happen); every value read
    /// back must be one that was stored for that key. Each key's bounds are `r, r + 8,
    /// r + 16` with `r` its own residue mod 8, so a value of another key, or a mix of two
    /// entries, shows.
    #[test]
    fn concurrent_readers_never_see_a_value_not_stored_for_their_key() {
        const KEYS: u64 = 4096;
        const ROUNDS: u64 = 200_000;
        let t = Table::new(64 * ENTRY_BYTES);
        let residue = |k: u64| (k % 8) as u32 + 1;
        let reads = AtomicUsize::new(0);
        let hits = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let (t, reads, hits) = (&t, &reads, &hits);
                scope.spawn(move || {
                    let mut rng = fastrand::Rng::with_seed(thread);
                    for _ in 0..ROUNDS {
                        let k = rng.u64(0..KEYS);
                        if rng.bool() {
                            let bound = residue(k) + 8 * rng.u32(0..3);
                            t.insert(key(k), bound, rng.u32(0..100));
                        } else {
                            let v = t.lookup(key(k));
                            reads.fetch_add(1, Relaxed);
                            if v != 0 {
                                hits.fetch_add(1, Relaxed);
                                assert!(
                                    v % 8 == residue(k) % 8 && v <= residue(k) + 16,
                                    "key {k} read {v}, never stored for it"
                                );
                            }
                        }
                    }
                });
            }
        });
        let (reads, hits) = (reads.into_inner(), hits.into_inner());
        assert!(reads > 300_000, "{reads} reads");
        assert!(hits > 1000, "{hits} hits: the test must read stored values");
    }
}
