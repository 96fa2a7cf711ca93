//! `futility_move_count` (001, which calls it LMR, seen in Ifrit): in the last 9 plies of
//! remaining depth, when not in check, only the first N quiet moves (after sorting) are
//! searched; N = {19, 19, 19, 19, 19, 35, 67, 131, 259} for remaining depth 1..9. 001 prints
//! the array reversed ("first 259, then 131, 67, ... down to 19" going down the tree).

use super::params::heuristic_params;

heuristic_params! {
    /// Parameters of `futility_move_count`.
    pub struct Params {
        /// Search only the first N quiet moves near the leaves.
        pub enabled: bool = false,
        /// N for remaining depth 1, 2, ..., 9 (001's `FutilityMoveCount`).
        pub counts: [u32; 9] = [19, 19, 19, 19, 19, 35, 67, 131, 259],
    }
}

/// The `quiet_index`-th quiet move (1-based) at remaining `depth` is not searched.
pub fn prunes_move(depth: i32, in_check: bool, quiet_index: usize, params: &Params) -> bool {
    if in_check || !(1..=9).contains(&depth) {
        return false;
    }
    quiet_index > params.counts[(depth - 1) as usize] as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_remaining_depth() {
        let p = Params::default();
        assert!(!prunes_move(1, false, 19, &p));
        assert!(prunes_move(1, false, 20, &p));
        assert!(!prunes_move(9, false, 259, &p));
        assert!(prunes_move(9, false, 260, &p));
        assert!(prunes_move(6, false, 36, &p));
    }

    #[test]
    fn not_in_check() {
        assert!(!prunes_move(1, true, 100, &Params::default()));
    }

    #[test]
    fn not_beyond_the_last_nine_plies() {
        assert!(!prunes_move(10, false, 1000, &Params::default()));
    }
}
