//! A slice's memo of relaxed optima and lower bounds.
//!
//! Values are remembered in a table of one byte per position shared by all threads (a
//! value computed twice is the same), indexed by what each column holds: a column can only
//! lose whole runs of one colour at a time, so it can become only a few hundred of the
//! `2^9` subsets of its tiles ([`super::columns`]), and the table of a three-column slice
//! has a few million entries instead of `2^27`. A four-column slice would need hundreds of
//! millions, so its values go to a hash table of [`HASHED_MEMO`] words instead, each
//! holding its position's number (a value lost to another position is only searched for
//! again).

use std::sync::atomic::Ordering::Relaxed;

use crate::zeroed::Zeroed;

/// The largest memo a slice may have indexed by position, in bytes (one per position, see
/// `Side::key`); a slice with more positions remembers them in a hash table instead.
pub(super) const MAX_MEMO: usize = 1 << 27;

/// Entries of a hashed memo (8 bytes each: 64 MiB).
pub(super) const HASHED_MEMO: usize = 1 << 23;

/// The most positions (keys `0..KEY_LIMIT`) a slice's memo can tell apart: a hashed memo's
/// word holds its key + 1 above the value byte, in 56 bits. A slice with more is not built
/// (`Side::with_memo`).
pub(super) const KEY_LIMIT: u64 = (1 << 56) - 1;

/// In the memo of a slice of three columns or more, the entry is exact (else a lower
/// bound). Every value stored is at most the slice's tiles + 1, below this bit
/// (checked where `Side` is defined).
pub(super) const EXACT: u8 = 0x80;

/// A slice's memo: one byte per position where they are few enough to index, else a
/// table of `HASHED_MEMO` words, each the key + 1 above the byte, direct-mapped (a lost
/// entry is only found again).
#[derive(Debug)]
pub(super) enum Memo {
    Indexed(Zeroed),
    Hashed(Zeroed),
}

impl Memo {
    /// A memo for the keys `0..entries` (at most [`KEY_LIMIT`]): indexed where there are
    /// at most `indexed`, else hashed in `hashed` words (a power of two).
    pub(super) fn new(entries: u64, indexed: usize, hashed: usize) -> Memo {
        assert!(
            entries <= KEY_LIMIT,
            "a memo of {entries} keys: its keys must stay below 2^56 - 1"
        );
        if entries <= indexed as u64 {
            Memo::Indexed(Zeroed::bytes(entries as usize))
        } else {
            Memo::Hashed(Zeroed::words(hashed))
        }
    }

    #[inline]
    pub(super) fn get(&self, key: usize) -> u8 {
        match self {
            Memo::Indexed(m) => m.as_bytes()[key].load(Relaxed),
            Memo::Hashed(t) => {
                let t = t.as_words();
                let w = t[Self::slot(key, t.len())].load(Relaxed);
                if w >> 8 == key as u64 + 1 {
                    w as u8
                } else {
                    0
                }
            }
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
            Memo::Hashed(t) => {
                let t = t.as_words();
                t[Self::slot(key, t.len())].store((key as u64 + 1) << 8 | v as u64, Relaxed)
            }
        }
    }

    /// Where `key` is in a hashed memo of `len` words.
    #[inline]
    fn slot(key: usize, len: usize) -> usize {
        ((key as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & (len - 1)
    }
}
