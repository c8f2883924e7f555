//! Johannes Baagøe's Alea generator and its Mash hash, as the JavaScript reference computes
//! them, bit for bit.
//!
//! JavaScript numbers are IEEE doubles and Rust's `f64` is the same format with the same
//! round-to-nearest arithmetic, so every step below is the reference's step on the same
//! values. Two JavaScript operators need care:
//!
//! - `x >>> 0` (ToUint32) truncates toward zero and reduces modulo 2^32. Every value it is
//!   applied to here is finite and non-negative (Mash's state only ever grows by character
//!   codes and fractions times 2^32), so it is `trunc`, then the low 32 bits.
//! - `x | 0` (ToInt32) on Alea's `t`, which lies in `[0, 2091640)`: plain truncation.
//!
//! Nothing here is fused (no `mul_add`), since the reference rounds after every operation.

/// 2^-32, the scale from a 32-bit integer to a fraction in `[0, 1)`.
const TWO_POW_MINUS_32: f64 = 2.328_306_436_538_696_3e-10;

/// 2^32.
const TWO_POW_32: f64 = 4_294_967_296.0;

/// JavaScript's `x >>> 0` for finite non-negative `x`: truncate, keep the low 32 bits.
fn to_uint32(x: f64) -> f64 {
    debug_assert!(x.is_finite() && x >= 0.0);
    ((x.trunc() as u64) & 0xffff_ffff) as f64
}

/// Mash: a hash of strings to fractions in `[0, 1)` that keeps its state between calls, so
/// hashing the same string twice gives two different values.
#[derive(Clone, Debug)]
pub struct Mash {
    /// The state: a non-negative double below 2^33 (an integer part below 2^32 plus a
    /// fraction of 2^32).
    n: f64,
}

impl Default for Mash {
    fn default() -> Self {
        Mash::new()
    }
}

impl Mash {
    /// A fresh hash, in the reference's initial state.
    pub fn new() -> Mash {
        Mash {
            n: f64::from(0xefc8_249d_u32),
        }
    }

    /// Hashes `data` (its UTF-16 code units, as JavaScript's `charCodeAt` reads a string)
    /// and returns the new state as a fraction in `[0, 1)`.
    pub fn mash(&mut self, data: &str) -> f64 {
        let mut n = self.n;
        for unit in data.encode_utf16() {
            n += f64::from(unit);
            let mut h = 0.025_196_032_824_169_38 * n;
            n = to_uint32(h);
            h -= n;
            h *= n;
            n = to_uint32(h);
            h -= n;
            n += h * TWO_POW_32;
        }
        self.n = n;
        to_uint32(n) * TWO_POW_MINUS_32
    }
}

/// Alea: three 32-bit fractions and a carry, a multiply-with-carry generator of fractions in
/// `[0, 1)` with 32 bits of precision.
#[derive(Clone, Debug)]
pub struct Alea {
    s0: f64,
    s1: f64,
    s2: f64,
    /// The carry: an integer in `[0, 2091639]`.
    c: f64,
}

impl Alea {
    /// The generator seeded by `seeds`, as the reference's `Alea(seeds...)` with each seed
    /// given as the string JavaScript would make of it (`3` is `"3"`). The reference treats
    /// no seeds as the current time; here the caller always names them.
    pub fn new(seeds: &[&str]) -> Alea {
        let mut mash = Mash::new();
        let mut s = [mash.mash(" "), mash.mash(" "), mash.mash(" ")];
        for seed in seeds {
            for x in s.iter_mut() {
                *x -= mash.mash(seed);
                if *x < 0.0 {
                    *x += 1.0;
                }
            }
        }
        Alea {
            s0: s[0],
            s1: s[1],
            s2: s[2],
            c: 1.0,
        }
    }

    /// The state `(s0, s1, s2)` (for tests against published states).
    pub fn state(&self) -> (f64, f64, f64) {
        (self.s0, self.s1, self.s2)
    }

    /// The next fraction in `[0, 1)`: the reference's `random()`.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> f64 {
        let t = 2_091_639.0 * self.s0 + self.c * TWO_POW_MINUS_32;
        self.s0 = self.s1;
        self.s1 = self.s2;
        // t is non-negative and below 2091640, so ToInt32 is truncation.
        self.c = t.trunc();
        self.s2 = t - self.c;
        self.s2
    }

    /// The next 32-bit unsigned integer: the reference's `uint32()`, `random() * 2^32 >>> 0`.
    pub fn next_u32(&mut self) -> u32 {
        to_uint32(self.next() * TWO_POW_32) as u32
    }

    /// An integer in `0..n`: `floor(next() * n)`, the usual JavaScript idiom.
    pub fn below(&mut self, n: u32) -> u32 {
        (self.next() * f64::from(n)).floor() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The values below are the ones Baagøe's page publishes for his JavaScript code ("any
    // implementation of ECMAScript should yield exactly those values"), and the seeded state
    // of the same example as a Python port documents it.

    #[test]
    fn mash_seeds_the_published_state() {
        let a = Alea::new(&["my", "3", "seeds"]);
        assert_eq!(
            a.state(),
            (0.23922116006724536, 0.6147655111271888, 0.3493568613193929)
        );
    }

    #[test]
    fn mash_keeps_its_state_between_calls() {
        let mut m = Mash::new();
        let first = m.mash(" ");
        let second = m.mash(" ");
        assert_ne!(first, second);
        assert!((0.0..1.0).contains(&first) && (0.0..1.0).contains(&second));
        // the empty string leaves the state as it is
        assert_eq!(m.mash(""), second);
    }

    #[test]
    fn alea_gives_the_published_fractions() {
        let mut a = Alea::new(&["my", "3", "seeds"]);
        assert_eq!(a.next(), 0.30802189325913787);
        assert_eq!(a.next(), 0.5190450621303171);
        assert_eq!(a.next(), 0.43635262292809784);

        let mut a = Alea::new(&["1277182878230"]);
        assert_eq!(a.next(), 0.6198398587293923);
        assert_eq!(a.next(), 0.8385338634252548);
        assert_eq!(a.next(), 0.3644848605617881);
    }

    #[test]
    fn alea_gives_the_published_integers() {
        let mut a = Alea::new(&[""]);
        assert_eq!(a.next_u32(), 715789690);
        assert_eq!(a.next_u32(), 2091287642);
        assert_eq!(a.next_u32(), 486307);
    }

    #[test]
    fn below_stays_in_range() {
        let mut a = Alea::new(&["range"]);
        let mut seen = [0usize; 4];
        for _ in 0..1000 {
            seen[a.below(4) as usize] += 1;
        }
        assert!(seen.iter().all(|&k| k > 150), "{seen:?}");
    }
}
