//! A small, documented, seeded pseudo-random generator.
//!
//! SplitMix64 (Steele, Lea and Flood, 2014): the state advances by the golden
//! gamma and each output is a bijective mix of the state. We write it here
//! instead of depending on `rand`, whose streams change between versions and
//! would silently break golden traces: the same seed must give the same
//! shuffle forever.

use serde::{Deserialize, Serialize};

/// A SplitMix64 generator. `Clone` so that a rejected action rolls the
/// generator back together with the rest of the state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rng {
    state: u64,
    /// Given results of the random draws, used before the generator.
    #[serde(skip)]
    script: Option<Script>,
}

/// The results of a run's random draws given in advance, in draw order
/// (each an index below the draw's range): a scenario's `random`, or the
/// branch `judge explore` is running.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Script {
    values: Vec<u64>,
    /// Draws made so far.
    next: usize,
    /// Strict (explore): a draw past the script returns 0 and records its
    /// range in `wanted`; otherwise the generator continues.
    strict: bool,
    /// The range of the first draw made past a strict script.
    wanted: Option<u64>,
    /// The first given result out of its draw's range: (draw, value, range).
    misfit: Option<(usize, u64, u64)>,
}

impl Rng {
    /// A generator seeded with `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        Rng {
            state: seed,
            script: None,
        }
    }

    /// Gives the results of the next random draws (indices; a value past a
    /// draw's range is taken modulo the range). `strict`: a draw past them
    /// returns 0 and is reported by [`Rng::wanted`] instead of using the
    /// generator.
    pub fn script(&mut self, values: Vec<u64>, strict: bool) {
        self.script = Some(Script {
            values,
            strict,
            ..Script::default()
        });
    }

    /// Where the generator stands, as a scenario gives it: the seed that
    /// continues it and the scripted results not drawn yet.
    pub fn continuation(&self) -> (u64, Vec<u64>) {
        let rest = self
            .script
            .as_ref()
            .map(|s| s.values.iter().skip(s.next).copied().collect())
            .unwrap_or_default();
        (self.state, rest)
    }

    /// The first given result that is out of its draw's range, as (index
    /// of the draw, value, range): the driver stops the run on it.
    pub fn misfit(&self) -> Option<(usize, u64, u64)> {
        self.script.as_ref().and_then(|s| s.misfit)
    }

    /// The range of the first draw a strict script did not give.
    pub fn wanted(&self) -> Option<u64> {
        self.script.as_ref().and_then(|s| s.wanted)
    }

    /// The scripted result of the next draw in `0..n`, if any.
    fn scripted(&mut self, n: u64) -> Option<u64> {
        let s = self.script.as_mut()?;
        let v = s.values.get(s.next).copied();
        s.next += 1;
        match v {
            Some(v) => {
                if v >= n {
                    s.misfit.get_or_insert((s.next - 1, v, n));
                }
                Some(v % n)
            }
            None if s.strict => {
                s.wanted.get_or_insert(n);
                Some(0)
            }
            None => None,
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`), without modulo bias
    /// (Lemire's rejection on the 128-bit product). Returns 0 when `n == 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        if let Some(v) = self.scripted(n) {
            return v;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// Fisher–Yates shuffle in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // Reference outputs of SplitMix64 seeded with 0 (from the published
        // C implementation); a change here breaks every golden trace.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range_and_shuffle_permutes() {
        let mut r = Rng::new(42);
        for n in 1..50u64 {
            assert!(r.below(n) < n);
        }
        let mut v: Vec<u32> = (0..20).collect();
        r.shuffle(&mut v);
        let mut s = v.clone();
        s.sort();
        assert_eq!(s, (0..20).collect::<Vec<_>>());
        assert_ne!(v, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn a_script_gives_the_draws_then_reports_or_falls_back() {
        let mut r = Rng::new(7);
        r.script(vec![2, 9], true);
        assert_eq!(r.below(5), 2);
        assert_eq!(r.below(5), 4);
        assert_eq!(r.wanted(), None);
        assert_eq!(r.below(3), 0);
        assert_eq!(r.wanted(), Some(3));
        let mut plain = Rng::new(7);
        let mut r = Rng::new(7);
        r.script(vec![1], false);
        assert_eq!(r.below(4), 1);
        assert_eq!(r.below(1000), plain.below(1000));
        let mut r = Rng::new(7);
        r.script(vec![5], false);
        r.below(3);
        assert_eq!(r.misfit(), Some((0, 5, 3)));
    }

    #[test]
    fn the_continuation_seeds_the_same_stream() {
        let mut r = Rng::new(99);
        r.script(vec![1, 2, 3], false);
        r.below(10);
        r.below(10);
        let (seed, rest) = r.continuation();
        assert_eq!(rest, [3]);
        let mut again = Rng::new(seed);
        again.script(rest, false);
        for _ in 0..5 {
            assert_eq!(r.below(1000), again.below(1000));
        }
    }
}
