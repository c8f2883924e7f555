//! Small bit-set helpers over [`Set`], a set of regions.

/// A set of regions: bit `r % 64` of word `r / 64` is region `r`.
pub type Set<const N: usize> = [u64; N];

#[inline]
pub fn empty<const N: usize>() -> Set<N> {
    [0; N]
}
#[inline]
pub fn insert<const N: usize>(s: &mut Set<N>, r: usize) {
    s[r >> 6] |= 1 << (r & 63);
}
#[inline]
pub fn contains<const N: usize>(s: &Set<N>, r: usize) -> bool {
    s[r >> 6] >> (r & 63) & 1 != 0
}
#[inline]
pub fn or<const N: usize>(a: &Set<N>, b: &Set<N>) -> Set<N> {
    std::array::from_fn(|i| a[i] | b[i])
}
#[inline]
pub fn and<const N: usize>(a: &Set<N>, b: &Set<N>) -> Set<N> {
    std::array::from_fn(|i| a[i] & b[i])
}
#[inline]
pub fn and_not<const N: usize>(a: &Set<N>, b: &Set<N>) -> Set<N> {
    std::array::from_fn(|i| a[i] & !b[i])
}
/// (All words are read, with no early exit: one vector test and one branch, where
/// stopping at the first non-zero word costs a hard-to-predict branch per word.)
#[inline]
pub fn is_empty<const N: usize>(a: &Set<N>) -> bool {
    a.iter().fold(0, |acc, &w| acc | w) == 0
}
/// Is `a` a subset of `b`? (No early exit, as [`is_empty`].)
#[inline]
pub fn subset<const N: usize>(a: &Set<N>, b: &Set<N>) -> bool {
    a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x & !y)) == 0
}
#[inline]
pub fn count<const N: usize>(a: &Set<N>) -> u32 {
    a.iter().map(|w| w.count_ones()).sum()
}
/// Calls `f` with every member, in increasing order.
#[inline]
pub fn for_each<const N: usize>(a: &Set<N>, mut f: impl FnMut(usize)) {
    for (i, &w) in a.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            f(i * 64 + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}
