//! The one random source of the generators: Xoshiro256++ (a named generator whose output is
//! specified, so it is the same on every machine and rand version), with sampling written here
//! on fixed-width integers so that no library's choice of algorithm can change the generated
//! bytes.

use rand::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub struct Rng(Xoshiro256PlusPlus);

/// FNV-1a, 64-bit: a fixed, portable hash of bytes.
fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(0xcbf2_9ce4_8422_2325, bytes)
}

fn fnv1a_from(h: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(h, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// SplitMix64's output function: spreads every input bit over the whole word.
fn splitmix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// A stream keyed by a few byte strings and numbers: FNV-1a over the parts (each followed
    /// by a separator, so ("ab", "c") and ("a", "bc") differ) and the numbers, expanded by
    /// SplitMix64 into the 32-byte seed. Fixed integer arithmetic, so the same on every
    /// machine; no allocation, because a stress run derives one stream per case.
    pub fn from_parts(parts: &[&[u8]], numbers: &[u64]) -> Rng {
        let mut h = fnv1a(b"boardjudge/v1");
        for part in parts {
            h = fnv1a_from(h, part);
            h = fnv1a_from(h, b"/");
        }
        for &n in numbers {
            h = splitmix(h ^ n);
        }
        let mut seed = [0u8; 32];
        for (k, chunk) in seed.chunks_exact_mut(8).enumerate() {
            chunk.copy_from_slice(
                &splitmix(h.wrapping_add((k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
                    .to_le_bytes(),
            );
        }
        Rng(Xoshiro256PlusPlus::from_seed(seed))
    }

    pub fn u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    pub fn u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`), by rejection: unbiased and fixed forever.
    ///
    /// Rejection sampling: a draw `x` is kept when `x < zone`, `zone = u32::MAX - u32::MAX % n`
    /// (the largest multiple of `n` not above `u32::MAX`), and gives `x % n`. That zone is
    /// tested without computing it: with `q = x / n`, `x < zone` exactly when the block of `n`
    /// values that starts at `q * n` ends before `u32::MAX`, i.e. `q * n + n - 1 < u32::MAX`
    /// (one division per draw instead of two; the numbers are the same, which the golden
    /// digests of generated tests pin).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0)");
        loop {
            let x = self.u32();
            let q = x / n;
            let start = u64::from(q) * u64::from(n);
            if start + u64::from(n) - 1 < u64::from(u32::MAX) {
                return x - start as u32;
            }
        }
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(hi - lo + 1)
    }

    /// `usize` index in `0..n`, sampled as a `u32`.
    pub fn index(&mut self, n: usize) -> usize {
        self.below(u32::try_from(n).expect("fits u32")) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        self.below(den) < num
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.index(items.len())]
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}
