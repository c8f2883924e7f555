//! The exact memo: lower bounds keyed by whole positions, for certifying a proof.

use std::hash::Hash;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Mutex;

use rustc_hash::FxHashMap;

use super::memo::Memo;
use crate::puzzle::Key;

/// Lower bounds keyed by the whole position: no hash collision can give one position
/// another's bound. Slower and larger than [`Table`](super::Table); for certifying a
/// proof. Its shards' tables together take at most its memory budget (counted by their
/// capacities, as [`table_bytes`]), bar the smallest table a shard can have: a shard that
/// would grow past the budget is emptied instead, giving its memory back (a sixty-fourth
/// of the entries). That costs the search time, never soundness (a missing entry reads as
/// 0), and the search goes on remembering what it proves last.
pub struct Exact<S> {
    shards: Vec<Mutex<FxHashMap<S, u32>>>,
    entries: AtomicUsize,
    /// What the shards' tables take, in bytes ([`table_bytes`] of their capacities).
    bytes: AtomicUsize,
    memory: usize,
}

const EXACT_SHARDS: usize = 64;

/// The bytes of a map's table with room for `capacity` entries of `(S, u32)`: the map
/// keeps an eighth of its slots free, and each slot holds an entry and a control byte.
pub fn table_bytes<S>(capacity: usize) -> usize {
    capacity.div_ceil(7) * 8 * (std::mem::size_of::<(S, u32)>() + 1)
}

impl<S: Hash + Eq> Exact<S> {
    /// An exact memo whose tables take at most `memory` bytes (and a smallest table per
    /// shard).
    pub fn new(memory: usize) -> Exact<S> {
        Exact {
            shards: (0..EXACT_SHARDS)
                .map(|_| Mutex::new(FxHashMap::default()))
                .collect(),
            entries: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            memory,
        }
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.entries.load(Relaxed)
    }

    /// Bytes its tables take.
    pub fn bytes(&self) -> usize {
        self.bytes.load(Relaxed)
    }

    /// Holds no position?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn shard(&self, hash: u64) -> std::sync::MutexGuard<'_, FxHashMap<S, u32>> {
        // A poisoned shard only means a thread panicked mid-search; its map is intact
        // (inserts do not unwind half way), so the bounds in it still hold.
        self.shards[(hash >> 58) as usize % EXACT_SHARDS]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

impl<S: Hash + Eq + Clone + Send> Memo<S> for Exact<S> {
    fn get(&self, s: &S, hash: u64, _check: impl FnOnce() -> u32) -> u32 {
        self.shard(hash).get(s).copied().unwrap_or(0)
    }

    fn store(&self, s: &S, key: Key, bound: u32, _work: u32) {
        let mut shard = self.shard(key.hash);
        if let Some(v) = shard.get_mut(s) {
            *v = (*v).max(bound);
            return;
        }
        let before = shard.capacity();
        if shard.len() == before {
            // The insert doubles the shard's table, and while its entries move both tables
            // are held: the new one must fit beside everything held now.
            let grown = table_bytes::<S>((2 * before).max(3));
            if self.bytes.load(Relaxed) + grown > self.memory && before > 0 {
                self.entries.fetch_sub(shard.len(), Relaxed);
                self.bytes.fetch_sub(table_bytes::<S>(before), Relaxed);
                *shard = FxHashMap::default();
            }
        }
        let before = shard.capacity();
        shard.insert(s.clone(), bound);
        self.entries.fetch_add(1, Relaxed);
        let after = shard.capacity();
        if after != before {
            self.bytes
                .fetch_add(table_bytes::<S>(after) - table_bytes::<S>(before), Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key for position `s` (the exact memo reads only its hash, to pick a shard).
    fn key(s: u64) -> Key {
        let hash = s.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Key { hash, check: 0 }
    }

    #[test]
    fn exact_memo_keys_on_the_position() {
        let m: Exact<u64> = Exact::new(1 << 20);
        let same = Key { hash: 1, check: 1 };
        m.store(&10, same, 4, 0);
        m.store(&11, same, 7, 0);
        let get = |s: u64| m.get(&s, same.hash, || same.check);
        assert_eq!(get(10), 4, "same key, other position: kept apart");
        assert_eq!(get(11), 7);
        m.store(&10, same, 2, 0);
        assert_eq!(get(10), 4, "keeps the larger bound");
        assert_eq!(get(12), 0);
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn a_full_exact_memo_empties_a_shard_to_make_room() {
        let memory = 4096;
        let m: Exact<u64> = Exact::new(memory);
        // beyond the budget, each shard's smallest table at most
        let most = memory + EXACT_SHARDS * table_bytes::<u64>(3);
        let mut cases = 0;
        for s in 0..5000u64 {
            m.store(&s, key(s), 5 + (s % 3) as u32, 0);
            assert!(m.bytes() <= most, "{} bytes", m.bytes());
            assert_eq!(m.get(&s, key(s).hash, || key(s).check), 5 + (s % 3) as u32);
            cases += 1;
        }
        assert_eq!(cases, 5000);
        // its count of bytes is what the shards' capacities say
        let held_bytes: usize = m
            .shards
            .iter()
            .map(|sh| table_bytes::<u64>(sh.lock().unwrap().capacity()))
            .sum();
        assert_eq!(m.bytes(), held_bytes);
        // what it holds is right, and it holds something from late on
        let held: Vec<u64> = (0..5000u64)
            .filter(|&s| m.get(&s, key(s).hash, || key(s).check) != 0)
            .collect();
        assert_eq!(held.len(), m.len());
        assert!(held.len() >= 64, "{} held", held.len());
        assert!(held
            .iter()
            .all(|&s| m.get(&s, key(s).hash, || key(s).check) == 5 + (s % 3) as u32));
        assert!(held.contains(&4999));
    }
}
