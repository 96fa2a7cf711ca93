//! `lmr`: late move reductions (Chess Programming Wiki, "Late Move Reductions"). Quiet moves
//! late in the order are searched shallower with a null window around alpha; one that beats
//! alpha is searched again at full depth. The reduction grows with the remaining depth and the
//! move's number, `base + ln(depth) · ln(move) / divisor`: the logarithmic table of Stockfish
//! (since 2013), Ethereal (`0.75 + log(depth) · log(played) / 2.25`, the defaults here) and
//! Weiss. It is one ply smaller for a killer or the countermove and for a quiet move with good
//! history (or, with `history_divisor`, smaller or larger by the move's history over it, within
//! two plies: Ethereal 12's `R -= MAX(-2, MIN(2, (hist + cmhist + fmhist) / 5000))`), and one
//! smaller at a PV node, as those engines adjust it; with `not_improving`,
//! larger where the side to move's static evaluation is no better than two plies before
//! (Ethereal 12 adds one ply there: a position getting worse is less likely to hold a move
//! that beats alpha). Ethereal's `R += !PvNode` is not a ply more than this: its `R` of 1 is
//! no reduction (the child searched at `newDepth - R`, the full depth `newDepth - 1`), so its
//! formula reduces as this one does with `not_improving` 1. What that and a ply more everywhere
//! (`base` 175, not kept) scored in games: `reports/checks/README.md`.
//!
//! Not to be confused with 001's "LMR", which is a move-count pruning (`futility_move_count`).

use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};

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
        /// Moves searched before any is reduced (Ethereal 12: one; 0 reduces even the first,
        /// a value SPSA may step to from `modern`'s 1).
        pub min_move: u32 [0..=64] = 3,
        /// A quiet move whose history is at least this reduces one ply less (when
        /// `history_divisor` is 0).
        pub good_history: i32 [0..=100000] = 1000,
        /// When above 0, the reduction moves by the move's history over this, within ±2 plies
        /// (more for bad history, less for good; Ethereal 12: 5000), in place of
        /// `good_history`'s one ply.
        pub history_divisor: i32 [0..=100000; structural] = 0,
        /// Plies more where the side to move's evaluation is not improving (Ethereal 12: 1).
        pub not_improving: i32 [0..=4] = 0,
        /// Quiet moves that give check are reduced too. Ethereal 12 reduces every quiet move
        /// (its `isQuiet` is "not a capture or promotion"), checks included; off, a check is
        /// searched at full depth, the usual exception (Chess Programming Wiki, "Late Move
        /// Reductions"). In the games' endings, where queens and rooks check often, our
        /// late moves were reduced 30% of the time against 73% in the middlegame
        /// (`reports/depth-gap/`).
        pub checks: bool = false,
        /// With `checks`, quiet checks at PV nodes are reduced too, as Ethereal 12 reduces
        /// them; off, a check at a PV node is searched at full depth and only the checks of
        /// the null-window tree are reduced. The PV is where a quiet check that starts a mate
        /// must be seen: with every check reduced the UCI default found WAC.186's mate in three
        /// (1. Bf8+, a quiet check at the root) at depth 12, with this off at depth 9
        /// (`tests/mates.rs`, `reports/elo-lmr-checks/`, `reports/elo-lmr-checks-off-pv/`).
        pub checks_at_pv: bool = true,
        /// Quiet moves at a node in check are reduced too, a king's move one ply more. Ethereal
        /// 12 reduces them so (its reduction has no in-check exception, and `R += inCheck &&`
        /// a king move: an evasion by the king rarely holds more than a block or a capture);
        /// off, every evasion is searched at full depth. Checks are most of an ending's late
        /// moves (`checks`), so their replies are most of its in-check nodes.
        pub evasions: bool = false,
        /// Plies more at an expected cut node (`NodeView::cut_node`): a node the search expects
        /// to fail high on its first move, so that a late move there is less likely to matter
        /// than at an expected all node. Stockfish (`search.cpp`, "Increase reduction for cut
        /// nodes", `r += 2` when `cutNode` before its reductions moved to 1024ths); Ethereal 12
        /// has no such term. The section 2 names the cut-node term among the reduction
        /// formulas to try.
        pub cut_node: i32 [0..=4; structural] = 0,
    }
}

/// The table's value for `depth` and `number`, in plies (rounded down).
pub fn table(depth: i32, number: usize, params: &Params) -> i32 {
    if depth < 1 || number < 1 {
        return 0;
    }
    let r = f64::from(params.base) / 100.0
        + ln(depth as usize) * ln(number) / (f64::from(params.divisor) / 100.0);
    r as i32
}

/// `ln(n)`, read from a table for the numbers a search meets (the same values `f64::ln`
/// gives, so the same reductions): the logarithm was 1% of `bench`'s time.
fn ln(n: usize) -> f64 {
    static TABLE: std::sync::LazyLock<[f64; 256]> =
        std::sync::LazyLock::new(|| std::array::from_fn(|i| (i as f64).ln()));
    TABLE.get(n).copied().unwrap_or_else(|| (n as f64).ln())
}

/// The reduction of a move, plies, never so deep that the move's search would start below one
/// ply. It applies to a quiet move past the first `min_move` that gives no check (or any, with
/// `checks`; at PV nodes only with `checks_at_pv`), made outside check (or in it, with
/// `evasions`, a king's move a ply more) at a remaining depth of at least `min_depth`; the
/// table's value is one ply smaller for a killer or the countermove, for good history and at a
/// PV node, and acts when it stays positive.
pub fn reduction(node: &NodeView, mv: &MoveView, new_depth: i32, params: &Params) -> Decision<i32> {
    let applies = mv.quiet_index > 0
        && (params.evasions || !node.in_check)
        && (!mv.gives_check || (params.checks && (params.checks_at_pv || !node.pv_node)))
        && node.depth >= params.min_depth
        && mv.legal_count > params.min_move as usize;
    if !applies {
        return Decision::Inapplicable;
    }
    let mut r = table(node.depth, mv.legal_count, params);
    r -= i32::from(mv.refutation);
    r -= if params.history_divisor > 0 {
        (mv.history / params.history_divisor).clamp(-2, 2)
    } else {
        i32::from(mv.history >= params.good_history)
    };
    r -= i32::from(node.pv_node);
    r += if node.improving { 0 } else { params.not_improving };
    r += if node.cut_node { params.cut_node } else { 0 };
    r += i32::from(node.in_check && mv.king_move);
    let r = r.clamp(0, (new_depth - 1).max(0));
    Decision::with(true, (r > 0).then_some(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quiet move numbered `number` at a node of remaining `depth`, with what differs.
    #[derive(Clone, Copy, Default)]
    struct Late {
        depth: i32,
        number: usize,
        capture: bool,
        check: bool,
        in_check: bool,
        king: bool,
        refutation: bool,
        history: i32,
        pv_node: bool,
        cut_node: bool,
        improving: bool,
    }

    fn late(depth: i32, number: usize) -> Late {
        Late { depth, number, ..Late::default() }
    }

    fn reduced(m: &Late, new_depth: i32, p: &Params) -> i32 {
        let node = NodeView {
            depth: m.depth,
            pv_node: m.pv_node,
            cut_node: m.cut_node,
            improving: m.improving,
            in_check: m.in_check,
            ..NodeView::default()
        };
        let mv = MoveView {
            legal_count: m.number,
            quiet_index: usize::from(!m.capture),
            capture: m.capture,
            gives_check: m.check,
            king_move: m.king,
            refutation: m.refutation,
            history: m.history,
            ..MoveView::default()
        };
        reduction(&node, &mv, new_depth, p).value().unwrap_or(0)
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
        assert_eq!(reduced(&late(8, 20), 7, &p), 3);
        assert_eq!(reduced(&late(8, 3), 7, &p), 0, "the first moves");
        assert_eq!(reduced(&late(2, 20), 1, &p), 0, "too shallow");
        let capture = Late { capture: true, ..late(8, 20) };
        assert_eq!(reduced(&capture, 7, &p), 0);
        let check = Late { check: true, ..late(8, 20) };
        assert_eq!(reduced(&check, 7, &p), 0);
        let checks = Params { checks: true, ..Params::default() };
        assert_eq!(reduced(&check, 7, &checks), 3, "with `checks`, a check like any quiet");
        assert_eq!(reduced(&Late { check: true, ..late(8, 3) }, 7, &checks), 0, "not the first moves");
        let pv_check = Late { check: true, pv_node: true, ..late(8, 20) };
        assert_eq!(reduced(&pv_check, 7, &checks), 2, "at a PV node too, a ply less");
        let off_pv = Params { checks_at_pv: false, ..checks };
        assert_eq!(reduced(&pv_check, 7, &off_pv), 0, "without `checks_at_pv`, not at a PV node");
        assert_eq!(reduced(&check, 7, &off_pv), 3, "but elsewhere");
        assert_eq!(reduced(&Late { pv_node: true, ..late(8, 20) }, 7, &off_pv), 2, "a quiet non-check at a PV node as before");
        assert_eq!(reduced(&pv_check, 7, &Params { checks_at_pv: false, ..p }), 0, "nothing without `checks`");
    }

    #[test]
    fn evasions_only_with_the_toggle_and_a_king_move_a_ply_more() {
        let evasion = Late { in_check: true, ..late(8, 20) };
        assert_eq!(reduced(&evasion, 7, &Params::default()), 0, "off by default");
        let p = Params { evasions: true, ..Params::default() };
        assert_eq!(reduced(&evasion, 7, &p), 3);
        assert_eq!(reduced(&Late { king: true, ..evasion }, 7, &p), 4);
        assert_eq!(reduced(&Late { king: true, ..late(8, 20) }, 7, &p), 3, "a king move outside check: no more");
        assert_eq!(reduced(&Late { in_check: true, ..late(8, 3) }, 7, &p), 0, "not the first moves");
    }

    #[test]
    fn less_for_refutations_good_history_and_pv_nodes() {
        let p = Params::default();
        let killer = Late { refutation: true, ..late(8, 20) };
        assert_eq!(reduced(&killer, 7, &p), 2);
        let good = Late { history: 5000, ..late(8, 20) };
        assert_eq!(reduced(&good, 7, &p), 2);
        let pv = Late { pv_node: true, refutation: true, history: 5000, ..late(8, 20) };
        assert_eq!(reduced(&pv, 7, &p), 0);
    }

    #[test]
    fn by_history_over_the_divisor_within_two_plies() {
        let p = Params { history_divisor: 5000, ..Params::default() };
        let with = |history| reduced(&Late { history, ..late(8, 20) }, 7, &p);
        assert_eq!(with(0), 3);
        assert_eq!(with(4999), 3, "less than one divisor: no change");
        assert_eq!(with(5000), 2);
        assert_eq!(with(60000), 1, "two plies at most");
        assert_eq!(with(-5000), 4);
        assert_eq!(with(-60000), 5, "two plies at most");
        assert_eq!(reduced(&Late { history: 5000, ..late(8, 20) }, 7, &Params::default()), 2);
        assert_eq!(reduced(&Late { history: -60000, ..late(8, 20) }, 7, &Params::default()), 3, "off by default");
    }

    #[test]
    fn more_where_the_evaluation_is_not_improving() {
        let p = Params { not_improving: 1, ..Params::default() };
        assert_eq!(reduced(&late(8, 20), 7, &p), 4);
        assert_eq!(reduced(&Late { improving: true, ..late(8, 20) }, 7, &p), 3);
        assert_eq!(reduced(&late(8, 20), 7, &Params::default()), 3, "off by default");
    }

    #[test]
    fn more_at_an_expected_cut_node() {
        let p = Params { cut_node: 2, ..Params::default() };
        assert_eq!(reduced(&Late { cut_node: true, ..late(8, 20) }, 7, &p), 5);
        assert_eq!(reduced(&late(8, 20), 7, &p), 3, "an expected all node: no more");
        assert_eq!(reduced(&Late { cut_node: true, ..late(8, 20) }, 4, &p), 3, "within the child's depth");
        assert_eq!(reduced(&Late { cut_node: true, ..late(8, 20) }, 7, &Params::default()), 3, "off by default");
    }

    #[test]
    fn never_below_one_ply() {
        assert_eq!(reduced(&late(40, 60), 2, &Params::default()), 1);
    }
}
