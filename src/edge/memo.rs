//! A slice's memo of relaxed optima and lower bounds.
//!
//! Values are remembered in a table of one byte per position shared by all threads (a
//! value computed twice is the same), indexed by what each column holds: a column can only
//! lose whole runs of one colour at a time, so it can become only a few hundred of the
//! `2^9` subsets of its tiles ([`super::columns`]), and the table of a three-column slice
//! has a few million entries instead of `2^27`. A four-column slice would need hundreds of
//! millions, so its values go to a hash table of at most [`HASHED_MEMO`] words instead,
//! each holding its position's number (a value lost to another position is only searched
//! for again).
//!
//! Memory is the cost that matters on the many boards a search proves in a fraction of a
//! second: a page of a memo costs the time to zero it when first written. An indexed memo
//! is written here and there, so it is kept on ordinary pages (4 KiB to zero for an
//! entry, not 2 MiB), and a hashed memo uses only the first [`HASHED_START`] words of its
//! block at first and makes the part it uses [`GROWTH`] times larger each time that part
//! is half full, up to its whole block, moving the entries it holds to their buckets in
//! the larger part, so that a look-up reads one bucket. An entry lost on the way (its new
//! bucket full, or a look-up made before it moved) is only searched for again. Every
//! entry holds its own key, so no look-up can read another position's value, whatever
//! part was in use when it was stored.

use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

use crate::zeroed::Zeroed;

/// The largest memo a slice may have indexed by position, in bytes (one per position, see
/// `Side::key`); a slice with more positions remembers them in a hash table instead.
pub(super) const MAX_MEMO: usize = 1 << 27;

/// Entries of a hashed memo at most (8 bytes each: 64 MiB).
pub(super) const HASHED_MEMO: usize = 1 << 23;

/// Entries of a hashed memo in use at first (8 bytes each: 2 MiB, one huge page). The hash
/// scatters entries over the whole part in use, so every page of it is written, and zeroed,
/// within the first milliseconds: a Former board has four such memos (the wide slices' and
/// the crossing games'), and on the many boards proven in a tenth of a second the pages of a
/// larger start are a large share of the time. The part in use then grows [`GROWTH`]
/// times at a step (`docs/benchmarks.md` has the figures for these choices).
pub(super) const HASHED_START: usize = 1 << 18;

/// The most positions (keys `0..KEY_LIMIT`) a slice's memo can tell apart: a hashed memo's
/// word holds its key + 1 above the value byte, in 56 bits. A slice with more is not built
/// (`Side::with_memo`).
pub(super) const KEY_LIMIT: u64 = (1 << 56) - 1;

/// In the memo of a slice of three columns or more, the entry is exact (else a lower
/// bound). Every value stored is at most the slice's tiles + 1, below this bit
/// (checked where `Side` is defined).
pub(super) const EXACT: u8 = 0x80;

/// A slice's memo: one byte per position where they are few enough to index, else a
/// hashed table of words, each the key + 1 above the byte (a lost entry is only found
/// again).
#[derive(Debug)]
pub(super) enum Memo {
    Indexed(Zeroed),
    Hashed(Hashed),
}

/// A hash table of words in buckets of [`WAYS`] that uses a growing first part of its
/// block (see the module doc).
#[derive(Debug)]
pub(super) struct Hashed {
    words: Zeroed,
    /// The sizes of the part in use, less one (each a power of two less one), from the
    /// first on: each [`GROWTH`] times the one before, the last the whole block.
    masks: Vec<usize>,
    /// Which of `masks` is in use.
    part: AtomicUsize,
    /// Entries written into empty words since the part in use last grew (racing
    /// writers may lose a count, which only delays a growth), on a cache line of its own
    /// (boxed, so that the memo itself stays small).
    filled: Box<Apart>,
}

/// A counter on a cache line of its own. The memo's other fields (and the slice's) are
/// read at every look-up by every thread; were the counter beside them, each count would
/// take their line from the other threads' caches. 128 bytes: processors that fetch
/// lines in pairs would otherwise still pull the neighbour along.
#[derive(Debug)]
#[repr(align(128))]
struct Apart(AtomicUsize);

/// How many times larger the part of a hashed memo in use becomes when it is half full
/// (or the whole block, if that is less). Each growth moves the entries, on the one
/// thread whose store made it grow, while the others miss those not yet moved: fewer,
/// larger steps cost less of both. From [`HASHED_START`] to [`HASHED_MEMO`] words,
/// three parts.
const GROWTH: usize = 8;

/// Words in a bucket of a hashed memo: a look-up reads one bucket, 32 bytes in one cache
/// line.
const WAYS: usize = 4;

impl Hashed {
    /// A table of `len` words (a power of two, at least [`WAYS`]), of which `start`
    /// (within `WAYS..=len`, rounded up to a power of two) are used at first.
    fn new(len: usize, start: usize) -> Hashed {
        assert!(len.is_power_of_two() && len >= WAYS);
        let mut masks = vec![start.clamp(WAYS, len).next_power_of_two() - 1];
        while let Some(&m) = masks.last().filter(|&&m| m + 1 < len) {
            masks.push(((m + 1) * GROWTH).min(len) - 1);
        }
        Hashed {
            words: Zeroed::words(len),
            masks,
            part: AtomicUsize::new(0),
            filled: Box::new(Apart(AtomicUsize::new(0))),
        }
    }

    /// Words in use now.
    #[cfg(test)]
    pub(super) fn in_use(&self) -> usize {
        self.masks[self.part.load(Relaxed)] + 1
    }

    /// The first word of `key`'s bucket in the part of `mask + 1` words.
    #[inline]
    fn bucket(key: usize, mask: usize) -> usize {
        ((key as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask & !(WAYS - 1)
    }

    /// The first word of `key`'s bucket in the part in use.
    #[inline]
    fn bucket_in_use(&self, key: usize) -> usize {
        Self::bucket(key, self.masks[self.part.load(Relaxed)])
    }

    /// The value stored for `key`, or 0.
    #[inline]
    fn get(&self, key: usize) -> u8 {
        let b = self.bucket_in_use(key);
        let tag = key as u64 + 1;
        for w in &self.words.as_words()[b..b + WAYS] {
            let w = w.load(Relaxed);
            if w >> 8 == tag {
                return w as u8;
            }
        }
        0
    }

    /// Moves each entry of the part of `old + 1` words to its bucket in the larger part
    /// of `new + 1` words, which the search already uses. The two hash a key alike but
    /// for the bucket number's higher bits, so an entry's bucket in the larger part is
    /// either the one it is in, where it stays, or one wholly past the smaller part,
    /// which takes the entries of that one bucket alone and so has room for them: a word
    /// there is taken only if still empty, and an entry's old word cleared only if it
    /// still holds it. An entry that a racing writer beats to its new word is lost, and
    /// one that a look-up missed before it moved may be stored again beside it (either
    /// word is a value of that key): that costs a search, never a wrong value.
    fn move_entries(&self, old: usize, new: usize) {
        let words = self.words.as_words();
        for (i, w) in words[..=old].iter().enumerate() {
            let v = w.load(Relaxed);
            if v == 0 {
                continue;
            }
            let to = Self::bucket(((v >> 8) - 1) as usize, new);
            if to == i & !(WAYS - 1) {
                continue;
            }
            if let Some(free) = words[to..to + WAYS].iter().find(|x| x.load(Relaxed) == 0) {
                let _ = free.compare_exchange(0, v, Relaxed, Relaxed);
            }
            let _ = w.compare_exchange(v, 0, Relaxed, Relaxed);
        }
    }

    /// Stores `v` for `key` in its bucket of the part in use: over its own entry, else in
    /// an empty word, else over the entry of least value (the cheapest to search for
    /// again). Moves on to the next, larger part once half the words of this one are
    /// taken, and moves the entries there ([`Hashed::move_entries`]).
    #[inline]
    fn set(&self, key: usize, v: u8) {
        let part = self.part.load(Relaxed);
        let mask = self.masks[part];
        let words = self.words.as_words();
        let b = Self::bucket(key, mask);
        let tag = key as u64 + 1;
        let (mut at, mut least, mut empty) = (b, u8::MAX, false);
        for (i, w) in words[b..b + WAYS].iter().enumerate() {
            let w = w.load(Relaxed);
            if w >> 8 == tag || w == 0 {
                (at, empty) = (b + i, w == 0);
                break;
            }
            if (w as u8 & !EXACT) < least {
                (at, least) = (b + i, w as u8 & !EXACT);
            }
        }
        words[at].store(tag << 8 | v as u64, Relaxed);
        if !empty {
            return;
        }
        let filled = self.filled.0.fetch_add(1, Relaxed) + 1;
        if filled > mask / 2 && part + 1 < self.masks.len() {
            // Half full: the next part (once, whoever wins the race).
            if self
                .part
                .compare_exchange(part, part + 1, Relaxed, Relaxed)
                .is_ok()
            {
                self.filled.0.store(0, Relaxed);
                self.move_entries(mask, self.masks[part + 1]);
            }
        }
    }
}

impl Memo {
    /// A memo for the keys `0..entries` (at most [`KEY_LIMIT`]): indexed where there are
    /// at most `indexed`, else hashed in at most `hashed` words (a power of two), of which
    /// [`HASHED_START`] are used at first.
    pub(super) fn new(entries: u64, indexed: usize, hashed: usize) -> Memo {
        Memo::starting(entries, indexed, hashed, HASHED_START)
    }

    /// [`Memo::new`] with `start` words of a hashed memo in use at first (within
    /// `WAYS..=hashed`, rounded up to a power of two) instead of [`HASHED_START`].
    pub(super) fn starting(entries: u64, indexed: usize, hashed: usize, start: usize) -> Memo {
        assert!(hashed.is_power_of_two() && hashed >= WAYS);
        assert!(
            entries <= KEY_LIMIT,
            "a memo of {entries} keys: its keys must stay below 2^56 - 1"
        );
        if entries <= indexed as u64 {
            Memo::Indexed(Zeroed::sparse_bytes(entries as usize))
        } else {
            Memo::Hashed(Hashed::new(hashed, start))
        }
    }

    /// A memo for the keys `0..entries` that takes at most `bytes` (but at least
    /// [`WAYS`] words): indexed where a byte per key fits in `bytes` and [`MAX_MEMO`],
    /// else hashed in the largest power of two of words that fits them and
    /// [`HASHED_MEMO`].
    pub(super) fn within(entries: u64, bytes: usize) -> Memo {
        let words = (bytes / 8).clamp(WAYS, HASHED_MEMO);
        let words = 1 << words.ilog2();
        Memo::new(entries, bytes.min(MAX_MEMO), words)
    }

    /// The bytes the memo may take (what it holds once every page of it is written).
    pub(super) fn bytes(&self) -> usize {
        match self {
            Memo::Indexed(m) => m.as_bytes().len(),
            Memo::Hashed(t) => t.words.as_words().len() * 8,
        }
    }

    #[inline]
    pub(super) fn get(&self, key: usize) -> u8 {
        match self {
            Memo::Indexed(m) => m.as_bytes()[key].load(Relaxed),
            Memo::Hashed(t) => t.get(key),
        }
    }

    /// Starts loading the cache line a [`Memo::get`] of `key` soon after will read.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: usize) {
        match self {
            Memo::Indexed(m) => m.prefetch(key / 8),
            Memo::Hashed(t) => t.words.prefetch(t.bucket_in_use(key)),
        }
    }

    /// Whether its entries are spread past a hashed memo's first part
    /// ([`HASHED_START`]): that part is mostly held in the processor's cache, which the
    /// larger ones are not, so a look-up there waits on memory.
    #[inline(always)]
    pub(super) fn spread(&self) -> bool {
        match self {
            Memo::Indexed(_) => false,
            Memo::Hashed(t) => t.part.load(Relaxed) > 0,
        }
    }

    #[inline]
    pub(super) fn set(&self, key: usize, v: u8) {
        debug_assert!(
            (key as u64) < KEY_LIMIT,
            "memo key {key} does not fit below its value byte"
        );
        match self {
            Memo::Indexed(m) => m.as_bytes()[key].store(v, Relaxed),
            Memo::Hashed(t) => t.set(key, v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A hashed memo that starts at a few words and grows: every look-up gives the value
    /// last stored for that key, or 0 (lost), never another key's; the part in use grows
    /// [`GROWTH`] times at a step up to the whole block and no further; and most entries
    /// survive the growths.
    #[test]
    fn a_growing_hashed_memo_gives_only_its_own_values() {
        let mut rng = fastrand::Rng::with_seed(7);
        let memo = Hashed::new(1 << 12, 16);
        assert_eq!(memo.in_use(), 16);
        let mut truth: HashMap<usize, u8> = HashMap::new();
        let mut checked = 0;
        let mut sizes = vec![memo.in_use()];
        for round in 0..20_000 {
            let key = rng.usize(..1 << 40);
            let v = rng.u8(1..=0xff);
            memo.set(key, v);
            truth.insert(key, v);
            if memo.in_use() != sizes[sizes.len() - 1] {
                sizes.push(memo.in_use());
            }
            if round % 3 == 0 {
                // a key stored before, and one never stored
                let old = *truth.keys().nth(rng.usize(..truth.len())).expect("stored");
                let got = memo.get(old);
                assert!(got == 0 || got == truth[&old], "key {old}: {got}");
                let fresh = (1 << 41) + rng.usize(..1 << 20);
                assert_eq!(memo.get(fresh), 0, "a key never stored");
                checked += 2;
            }
        }
        assert_eq!(sizes, [16, 128, 1024, 4096], "grown to the whole block");
        let kept = truth.iter().filter(|(&k, &v)| memo.get(k) == v).count();
        assert!(checked >= 13_000);
        // 20,000 keys in 4096 words: a good part of the block holds entries still found
        assert!(kept > 2000, "kept {kept} of {}", truth.len());
    }

    /// Threads storing and looking up keys while the memo grows under them read only
    /// their keys' own values (each key has one, so any word found for it holds it),
    /// and most entries survive the moves.
    #[test]
    fn racing_threads_read_only_their_own_values() {
        let memo = Hashed::new(1 << 14, 16);
        let value = |key: usize| (key.wrapping_mul(0x9e37_79b9) >> 7) as u8 | 1;
        let checked: usize = std::thread::scope(|sc| {
            let workers: Vec<_> = (0..4u64)
                .map(|t| {
                    let memo = &memo;
                    sc.spawn(move || {
                        let mut rng = fastrand::Rng::with_seed(t);
                        let mut checked = 0;
                        for _ in 0..40_000 {
                            let key = rng.usize(..6000);
                            if rng.bool() {
                                memo.set(key, value(key));
                            } else {
                                let got = memo.get(key);
                                assert!(got == 0 || got == value(key), "key {key}: {got}");
                                checked += 1;
                            }
                        }
                        checked
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        assert_eq!(memo.in_use(), 1 << 14, "grown to the whole block");
        let kept = (0..6000).filter(|&k| memo.get(k) == value(k)).count();
        assert!(
            checked > 60_000 && kept > 4000,
            "{checked} looked up, {kept} kept"
        );
    }

    /// A value stored while the part in use was small is still found after it grew.
    #[test]
    fn entries_from_before_a_growth_are_found() {
        let memo = Hashed::new(1 << 16, HASHED_START.min(1 << 10));
        let start = memo.in_use();
        let mut keys = Vec::new();
        let mut k = 3usize;
        let before = loop {
            let found = keys.iter().filter(|&&k| memo.get(k) == 5).count();
            memo.set(k, 5);
            keys.push(k);
            k += 7919;
            if memo.in_use() > start {
                break found;
            }
        };
        assert!(before > start / 3, "{before} entries before the growth");
        let after = keys.iter().filter(|&&k| memo.get(k) == 5).count();
        // the store that grew it may have replaced one entry, and added its own
        assert!(after + 1 >= before, "{after} found after, {before} before");
    }
}
