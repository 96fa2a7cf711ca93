//! The one seeded permutation of the project: Fisher–Yates (Knuth's Algorithm P) driven by
//! xoshiro256++ from a seed, so that a shuffled quiet-move order and a training epoch's
//! position order are reproducible from their seeds alone. (The openings' order and SPSA's signs keep
//! rand_xoshiro's SplitMix64 stream, pinned by tests: changing it would change the openings of
//! every seeded match and the perturbations of every tune, resumed ones included.)

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Permute `items` in place, from `seed`.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for i in (1..items.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_one_permutation() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        let mut c: Vec<u32> = (0..50).collect();
        shuffle(&mut c, 8);
        assert_ne!(a, c);
    }
}
