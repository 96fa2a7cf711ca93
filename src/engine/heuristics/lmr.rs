//! `lmr`: late move reductions (Chess Programming Wiki, "Late Move Reductions"). Quiet moves
//! late in the order are searched shallower with a null window around alpha; one that beats
//! alpha is searched again at full depth. The reduction grows with the remaining depth and the
//! move's number, `base + ln(depth) · ln(move) / divisor`: the logarithmic table of Stockfish
//! (since 2013), Ethereal (`0.75 + log(depth) · log(played) / 2.25`, the defaults here) and
//! Weiss. It is one ply smaller for a killer or the countermove and for a quiet move with good
//! history, and one smaller at a PV node, as those engines adjust it.
//!
//! Not to be confused with 001's "LMR", which is a move-count pruning (`futility_move_count`).

use super::params::heuristic_params;

heuristic_params! {
    /// Parameters of `lmr`.
    pub struct Params {
        /// Reduce late quiet moves, re-search on fail-high.
        pub enabled: bool = false,
        /// The table's constant term (hundredths of a ply).
        pub base: i32 [0..=400] = 75,
        /// The divisor of `ln(depth) · ln(move)` (hundredths).
        pub divisor: i32 [50..=1000] = 225,
        /// No reduction at a remaining depth below this.
        pub min_depth: i32 [1..=16] = 3,
        /// Moves searched before any is reduced (the first one or two at least).
        pub min_move: u32 [1..=64] = 3,
        /// A quiet move whose history is at least this reduces one ply less.
        pub good_history: i32 [0..=100000] = 1000,
    }
}

/// What the reduction of one move depends on.
#[derive(Clone, Copy, Debug, Default)]
pub struct LateMove {
    /// Remaining depth of the node.
    pub depth: i32,
    /// 1-based number of the move at the node.
    pub number: usize,
    /// The move is quiet (no capture, no promotion).
    pub quiet: bool,
    /// The side to move is in check, or the move gives check.
    pub check: bool,
    /// A killer or the countermove.
    pub refutation: bool,
    /// Its history (the ordering score of quiet moves).
    pub history: i32,
    /// The node is a PV node (its window is wider than null).
    pub pv_node: bool,
}

/// The table's value for `depth` and `number`, in plies (rounded down).
pub fn table(depth: i32, number: usize, params: &Params) -> i32 {
    if depth < 1 || number < 1 {
        return 0;
    }
    let r = f64::from(params.base) / 100.0
        + (f64::from(depth)).ln() * (number as f64).ln() / (f64::from(params.divisor) / 100.0);
    r as i32
}

/// The reduction of a move, plies (0: not reduced), never so deep that the move's search
/// would start below one ply.
pub fn reduction(m: &LateMove, new_depth: i32, params: &Params) -> i32 {
    if !m.quiet || m.check || m.depth < params.min_depth || m.number <= params.min_move as usize {
        return 0;
    }
    let mut r = table(m.depth, m.number, params);
    r -= i32::from(m.refutation);
    r -= i32::from(m.history >= params.good_history);
    r -= i32::from(m.pv_node);
    r.clamp(0, (new_depth - 1).max(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn late(depth: i32, number: usize) -> LateMove {
        LateMove {
            depth,
            number,
            quiet: true,
            ..LateMove::default()
        }
    }

    #[test]
    fn the_logarithmic_table() {
        let p = Params::default();
        // 0.75 + ln 8 · ln 20 / 2.25 = 0.75 + 2.079 · 2.996 / 2.25 = 3.52
        assert_eq!(table(8, 20, &p), 3);
        assert_eq!(table(3, 4, &p), 1);
        assert_eq!(table(1, 30, &p), 0);
        assert!(table(20, 40, &p) > table(10, 40, &p));
    }

    #[test]
    fn only_late_quiet_moves_outside_check_at_enough_depth() {
        let p = Params::default();
        assert_eq!(reduction(&late(8, 20), 7, &p), 3);
        assert_eq!(reduction(&late(8, 3), 7, &p), 0, "the first moves");
        assert_eq!(reduction(&late(2, 20), 1, &p), 0, "too shallow");
        let capture = LateMove { quiet: false, ..late(8, 20) };
        assert_eq!(reduction(&capture, 7, &p), 0);
        let check = LateMove { check: true, ..late(8, 20) };
        assert_eq!(reduction(&check, 7, &p), 0);
    }

    #[test]
    fn less_for_refutations_good_history_and_pv_nodes() {
        let p = Params::default();
        let killer = LateMove { refutation: true, ..late(8, 20) };
        assert_eq!(reduction(&killer, 7, &p), 2);
        let good = LateMove { history: 5000, ..late(8, 20) };
        assert_eq!(reduction(&good, 7, &p), 2);
        let pv = LateMove { pv_node: true, refutation: true, history: 5000, ..late(8, 20) };
        assert_eq!(reduction(&pv, 7, &p), 0);
    }

    #[test]
    fn never_below_one_ply() {
        assert_eq!(reduction(&late(40, 60), 2, &Params::default()), 1);
    }
}
