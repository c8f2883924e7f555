//! Bit sets over board cells: the lowest layer of the engine.
//!
//! A board of the click games is stored as one bit set per colour (see [`crate::click`]).
//! Everything the engine does to a board is a handful of whole-board bit operations: flood
//! fill is repeated dilation, gravity and the sideways steps are parallel bit extract/deposit
//! (`pext`/`pdep`). [`Bits`] names exactly those operations, so the engine is written once and
//! runs on a single `u64` for boards of up to 64 cells (NRK Former is 63, the dust game 48,
//! Figure 25) and on the multi-word [`Wide`] for bigger ones (SameGame 15×15, up to 512 cells).
//!
//! `pext`/`pdep` compile to the BMI2 instructions when the target has them (the repository's
//! `.cargo/config.toml` builds for the host CPU) and to a portable loop otherwise.
//!
//! ```
//! use tumble::bits::Bits;
//! let set: u64 = 0b1011_0100;
//! assert_eq!(set.count(), 4);
//! assert_eq!(set.iter().collect::<Vec<_>>(), vec![2, 4, 5, 7]);
//! // gather the bits under a mask into the low bits
//! assert_eq!(set.pext(0b1111_0000), 0b1011);
//! ```

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A fixed-capacity set of cell indices with the bit-parallel operations the engine needs.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// How many cells the set can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;

    /// The set `{0, 1, …, n-1}`.
    fn low(n: usize) -> Self;
    /// The set `{i}`.
    fn single(i: usize) -> Self;
    /// Is `i` in the set?
    fn has(&self, i: usize) -> bool;
    /// Adds `i`.
    fn insert(&mut self, i: usize);
    /// Is the set empty?
    fn is_empty(&self) -> bool;
    /// Number of elements.
    fn count(&self) -> u32;
    /// The smallest element, if any.
    fn first(&self) -> Option<usize>;
    /// The largest element, if any.
    fn last(&self) -> Option<usize>;
    /// The set moved up by `n` indices (elements past the capacity are lost).
    fn shl(self, n: u32) -> Self;
    /// The set moved down by `n` indices.
    fn shr(self, n: u32) -> Self;
    /// Parallel bit extract: the elements of `self` under `mask`, packed to the low indices
    /// in order.
    fn pext(self, mask: Self) -> Self;
    /// Parallel bit deposit: the low elements of `self` spread, in order, over `mask`.
    fn pdep(self, mask: Self) -> Self;
    /// The low 64 bits.
    fn low_word(&self) -> u64;
    /// The set of the bits of `w`: `{i < 64 : bit i of w is 1}`.
    fn from_word(w: u64) -> Self;
    /// A 64-bit mix of the set, for hashing positions.
    fn mix(&self, seed: u64) -> u64;

    /// `self & !other`.
    #[inline]
    fn without(self, other: Self) -> Self {
        self & !other
    }
    /// Does the set share an element with `other`?
    #[inline]
    fn meets(self, other: Self) -> bool {
        !(self & other).is_empty()
    }
    /// The elements in increasing order.
    fn iter(&self) -> BitIter<Self> {
        BitIter(*self)
    }
}

/// Iterator over the elements of a [`Bits`] set, smallest first.
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        let i = self.0.first()?;
        self.0 = self.0.without(B::single(i));
        Some(i)
    }
}

/// Software `pext` on one word, used where BMI2 is not compiled in or is slow (`build.rs`).
#[inline]
pub fn pext64_soft(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask ^= low;
    }
    out
}

/// Software `pdep` on one word, used where BMI2 is not compiled in or is slow (`build.rs`).
#[inline]
pub fn pdep64_soft(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & bit != 0 {
            out |= low;
        }
        bit <<= 1;
        mask ^= low;
    }
    out
}

/// Whether [`pext64`] and [`pdep64`] are the BMI2 instructions, fast (a few cycles): else
/// they are bit loops, and code that can look their values up instead does.
pub const FAST_PEXT: bool = cfg!(all(
    target_arch = "x86_64",
    target_feature = "bmi2",
    not(slow_pext)
));

/// `pext` on one word: BMI2 where compiled in and fast (`build.rs` sets `slow_pext` for the
/// CPUs that run it in microcode).
#[inline(always)]
pub fn pext64(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2", not(slow_pext)))]
    {
        // SAFETY: the instruction is available: the target feature is enabled at compile time.
        unsafe { core::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2", not(slow_pext))))]
    {
        pext64_soft(x, mask)
    }
}

/// `pdep` on one word: BMI2 where compiled in and fast (as [`pext64`]).
#[inline(always)]
pub fn pdep64(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2", not(slow_pext)))]
    {
        // SAFETY: the instruction is available: the target feature is enabled at compile time.
        unsafe { core::arch::x86_64::_pdep_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2", not(slow_pext))))]
    {
        pdep64_soft(x, mask)
    }
}

#[inline(always)]
fn mix64(mut z: u64) -> u64 {
    // splitmix64 finaliser
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Bits for u64 {
    const CAPACITY: usize = 64;
    const EMPTY: Self = 0;

    #[inline(always)]
    fn low(n: usize) -> Self {
        if n >= 64 {
            u64::MAX
        } else {
            (1u64 << n) - 1
        }
    }
    #[inline(always)]
    fn single(i: usize) -> Self {
        1u64 << i
    }
    #[inline(always)]
    fn has(&self, i: usize) -> bool {
        (self >> i) & 1 != 0
    }
    #[inline(always)]
    fn insert(&mut self, i: usize) {
        *self |= 1u64 << i;
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        *self == 0
    }
    #[inline(always)]
    fn count(&self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn first(&self) -> Option<usize> {
        if *self == 0 {
            None
        } else {
            Some(self.trailing_zeros() as usize)
        }
    }
    #[inline(always)]
    fn last(&self) -> Option<usize> {
        if *self == 0 {
            None
        } else {
            Some(63 - self.leading_zeros() as usize)
        }
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self.checked_shl(n).unwrap_or(0)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self.checked_shr(n).unwrap_or(0)
    }
    #[inline(always)]
    fn pext(self, mask: Self) -> Self {
        pext64(self, mask)
    }
    #[inline(always)]
    fn pdep(self, mask: Self) -> Self {
        pdep64(self, mask)
    }
    #[inline(always)]
    fn low_word(&self) -> u64 {
        *self
    }
    #[inline(always)]
    fn from_word(w: u64) -> Self {
        w
    }
    #[inline(always)]
    fn mix(&self, seed: u64) -> u64 {
        mix64(self ^ seed)
    }
}

/// A bit set of `64 * N` cells, for boards bigger than one word.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

macro_rules! wide_binop {
    ($trait:ident, $f:ident, $op:tt, $atrait:ident, $af:ident) => {
        impl<const N: usize> std::ops::$trait for Wide<N> {
            type Output = Self;
            #[inline(always)]
            #[allow(clippy::assign_op_pattern)]
            fn $f(self, rhs: Self) -> Self {
                let mut out = self.0;
                for (o, r) in out.iter_mut().zip(rhs.0) {
                    *o = *o $op r;
                }
                Wide(out)
            }
        }
        impl<const N: usize> std::ops::$atrait for Wide<N> {
            #[inline(always)]
            fn $af(&mut self, rhs: Self) {
                for (o, r) in self.0.iter_mut().zip(rhs.0) {
                    *o = *o $op r;
                }
            }
        }
    };
}
wide_binop!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
wide_binop!(BitOr, bitor, |, BitOrAssign, bitor_assign);
wide_binop!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl<const N: usize> Not for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Wide(self.0.map(|w| !w))
    }
}

impl<const N: usize> Wide<N> {
    /// Reads `len ≤ 64` bits starting at bit `at` (bits past the end read as 0).
    #[inline]
    fn read(&self, at: usize, len: u32) -> u64 {
        if len == 0 || at >= 64 * N {
            return 0;
        }
        let (w, b) = (at / 64, at % 64);
        let mut v = self.0[w] >> b;
        if b != 0 && w + 1 < N {
            v |= self.0[w + 1] << (64 - b);
        }
        v & u64::low(len as usize)
    }

    /// ORs the low `len` bits of `v` in at bit `at` (bits past the end are dropped).
    #[inline]
    fn write_or(&mut self, at: usize, v: u64) {
        if v == 0 || at >= 64 * N {
            return;
        }
        let (w, b) = (at / 64, at % 64);
        self.0[w] |= v << b;
        if b != 0 && w + 1 < N {
            self.0[w + 1] |= v >> (64 - b);
        }
    }
}

impl<const N: usize> Bits for Wide<N> {
    const CAPACITY: usize = 64 * N;
    const EMPTY: Self = Wide([0; N]);

    fn low(n: usize) -> Self {
        let mut out = [0u64; N];
        for (i, w) in out.iter_mut().enumerate() {
            let lo = i * 64;
            *w = if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1u64 << (n - lo)) - 1
            } else {
                0
            };
        }
        Wide(out)
    }
    #[inline(always)]
    fn single(i: usize) -> Self {
        let mut out = [0u64; N];
        out[i / 64] = 1u64 << (i % 64);
        Wide(out)
    }
    #[inline(always)]
    fn has(&self, i: usize) -> bool {
        (self.0[i / 64] >> (i % 64)) & 1 != 0
    }
    #[inline(always)]
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1u64 << (i % 64);
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline(always)]
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }
    #[inline(always)]
    fn last(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .rfind(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + 63 - w.leading_zeros() as usize)
    }
    #[inline]
    fn shl(self, n: u32) -> Self {
        let (ws, bs) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; N];
        for i in (ws..N).rev() {
            let src = i - ws;
            let mut v = self.0[src] << bs;
            if bs != 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bs);
            }
            out[i] = v;
        }
        Wide(out)
    }
    #[inline]
    fn shr(self, n: u32) -> Self {
        let (ws, bs) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; N];
        for (i, o) in out.iter_mut().enumerate() {
            let src = i + ws;
            if src >= N {
                break;
            }
            let mut v = self.0[src] >> bs;
            if bs != 0 && src + 1 < N {
                v |= self.0[src + 1] << (64 - bs);
            }
            *o = v;
        }
        Wide(out)
    }
    fn pext(self, mask: Self) -> Self {
        let mut out = Self::EMPTY;
        let mut at = 0usize;
        for i in 0..N {
            let m = mask.0[i];
            if m != 0 {
                out.write_or(at, pext64(self.0[i], m));
                at += m.count_ones() as usize;
            }
        }
        out
    }
    fn pdep(self, mask: Self) -> Self {
        let mut out = [0u64; N];
        let mut at = 0usize;
        for (i, o) in out.iter_mut().enumerate() {
            let m = mask.0[i];
            if m != 0 {
                let c = m.count_ones();
                *o = pdep64(self.read(at, c), m);
                at += c as usize;
            }
        }
        Wide(out)
    }
    #[inline(always)]
    fn low_word(&self) -> u64 {
        self.0[0]
    }
    #[inline]
    fn from_word(w: u64) -> Self {
        let mut out = [0u64; N];
        out[0] = w;
        Wide(out)
    }
    #[inline]
    fn mix(&self, seed: u64) -> u64 {
        let mut h = seed;
        for &w in &self.0 {
            h = mix64(h ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn to_vec<B: Bits>(b: B) -> Vec<usize> {
        b.iter().collect()
    }

    /// The obvious definition of pext on index sets.
    fn pext_ref(x: &[usize], mask: &[usize]) -> Vec<usize> {
        mask.iter()
            .enumerate()
            .filter(|(_, m)| x.contains(m))
            .map(|(k, _)| k)
            .collect()
    }

    fn pdep_ref(x: &[usize], mask: &[usize]) -> Vec<usize> {
        mask.iter()
            .enumerate()
            .filter(|(k, _)| x.contains(k))
            .map(|(_, &m)| m)
            .collect()
    }

    fn wide_from(v: &[usize]) -> Wide<4> {
        let mut w = Wide::<4>::EMPTY;
        for &i in v {
            w.insert(i);
        }
        w
    }

    proptest! {
        #[test]
        fn soft_pext_pdep_match_definition(x: u64, m: u64) {
            let xs = to_vec(x);
            let ms = to_vec(m);
            prop_assert_eq!(to_vec(pext64_soft(x, m)), pext_ref(&xs, &ms));
            prop_assert_eq!(to_vec(pdep64_soft(x, m)), pdep_ref(&xs, &ms));
            prop_assert_eq!(pext64(x, m), pext64_soft(x, m));
            prop_assert_eq!(pdep64(x, m), pdep64_soft(x, m));
            prop_assert_eq!(x.first(), xs.first().copied());
            prop_assert_eq!(x.last(), xs.last().copied());
        }

        #[test]
        fn wide_ops_match_definition(
            x in proptest::collection::btree_set(0usize..256, 0..120),
            m in proptest::collection::btree_set(0usize..256, 0..200),
            s in 0u32..260,
        ) {
            let xs: Vec<usize> = x.iter().copied().collect();
            let ms: Vec<usize> = m.iter().copied().collect();
            let (wx, wm) = (wide_from(&xs), wide_from(&ms));
            prop_assert_eq!(to_vec(wx.pext(wm)), pext_ref(&xs, &ms));
            prop_assert_eq!(to_vec(wx.pdep(wm)), pdep_ref(&xs, &ms));
            prop_assert_eq!(wx.count() as usize, xs.len());
            prop_assert_eq!(wx.first(), xs.first().copied());
            prop_assert_eq!(wx.last(), xs.last().copied());
            let shl: Vec<usize> = xs.iter().map(|i| i + s as usize).filter(|&i| i < 256).collect();
            let shr: Vec<usize> = xs.iter().filter(|&&i| i >= s as usize).map(|i| i - s as usize).collect();
            prop_assert_eq!(to_vec(wx.shl(s)), shl);
            prop_assert_eq!(to_vec(wx.shr(s)), shr);
            prop_assert_eq!(to_vec(Wide::<4>::low(s as usize)), (0..(s as usize).min(256)).collect::<Vec<_>>());
        }
    }
}
