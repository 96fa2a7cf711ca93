//! `late_move_pruning` (move count pruning; Chess Programming Wiki, "Futility Pruning § Move
//! Count Based Pruning"): at a shallow non-PV node outside check, once `base + depth²` quiet
//! moves (by default; `count`) have been tried, the remaining quiet moves are skipped. The quadratic count is
//! Weiss's and Ethereal's form (Stockfish's is `(3 + depth²) / 2` when not improving).
//!
//! 001's `FutilityMoveCount` (here `futility_move_count`) is the same idea a decade earlier:
//! a fixed table over the last 9 plies (19 moves up to depth 5, then 35, 67, 131, 259) applied
//! at every node, PV nodes included. The modern form prunes far earlier near the leaves (4
//! quiet moves at depth 1, 7 at depth 2, 12 at 3), only at null-window nodes, and stops at
//! `max_depth`.
//!
//! Ethereal 12.00 (search.h, `LateMovePruningCounts`) keeps two tables, the improving one
//! about twice the other: 3, 4, 6, 10, 14, 19, 25, 31 quiet moves seen at depths 1 to 8 when
//! not improving, 5, 7, 11, 17, 26, 36, 48, 63 when improving (it skips from the count on, so it
//! tries one fewer). `quadratic` and `improving_percent` give that shape: `base` 2,
//! `quadratic` 45 and `improving_percent` 200 try 2, 3, 6, 9, 13, 18, 24, 30 and 4, 7, 12, 18,
//! 26, 36, 48, 61 quiet moves, where Ethereal 12 tries 2, 3, 5, 9, 13, 18, 24, 30 and 4, 6, 10,
//! 16, 25, 35, 47, 62. Ethereal 12 prunes at PV nodes and quiet checks too; this form does not.
//! That shape against the default's `3 + d²` in self-play: H0 after 1,834 games at 4+0.04, about
//! 4% fewer nodes a move and no gain (`reports/elo-late-move-pruning/`), so the default keeps it.

use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};

heuristic_params! {
    /// Parameters of `late_move_pruning`.
    pub struct Params {
        /// Skip late quiet moves at shallow non-PV nodes.
        pub enabled: bool = false,
        /// The deepest remaining depth it applies at.
        pub max_depth: i32 [1..=16] = 8,
        /// The count's constant term: `base + quadratic · depth² / 100` quiet moves are tried.
        pub base: u32 [0..=1000] = 3,
        /// The count's depth² term, hundredths (Ethereal 12's tables: about 45).
        pub quadratic: u32 [10..=400] = 100,
        /// Where the side to move's evaluation is improving, the count is this percentage of
        /// the other (Ethereal 12's tables: about 200).
        pub improving_percent: u32 [50..=400] = 100,
    }
}

/// Skip this quiet move: it applies to quiet moves that give no check (`gives_check`, asked
/// once the rest holds) at a null-window node outside check within `max_depth`, and acts once
/// `count` quiet moves were tried. A quiet check is never skipped: it is a forcing
/// move, and skipping it hides mates (WAC.001's Qg6 line, found at depth 8 only with this
/// pruning off).
pub fn prunes_move(
    node: &NodeView,
    mv: &MoveView,
    gives_check: impl FnOnce() -> bool,
    params: &Params,
) -> Decision {
    let applies = mv.quiet_index > 0
        && !node.in_check
        && !node.pv_node
        && (1..=params.max_depth).contains(&node.depth)
        && !gives_check();
    Decision::when(applies, mv.quiet_index > count(node.depth, node.improving, params))
}

/// How many quiet moves are tried at remaining `depth`: `base + quadratic · depth² / 100`,
/// times `improving_percent / 100` where the evaluation is improving (rounded down).
pub fn count(depth: i32, improving: bool, params: &Params) -> usize {
    let squared = u64::from(depth.max(0).unsigned_abs().pow(2));
    let count = u64::from(params.base) * 100 + u64::from(params.quadratic) * squared;
    let percent = if improving {
        u64::from(params.improving_percent)
    } else {
        100
    };
    (count * percent / 10_000) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_check_is_never_skipped() {
        let node = NodeView {
            depth: 1,
            ..NodeView::default()
        };
        let mv = MoveView {
            quiet_index: 50,
            ..MoveView::default()
        };
        let p = Params::default();
        assert!(prunes_move(&node, &mv, || false, &p).acts());
        assert_eq!(prunes_move(&node, &mv, || true, &p), Decision::Inapplicable);
    }

    fn prunes(depth: i32, in_check: bool, pv_node: bool, quiet_index: usize, p: &Params) -> bool {
        let node = NodeView { depth, in_check, pv_node, ..NodeView::default() };
        let mv = MoveView { quiet_index, ..MoveView::default() };
        prunes_move(&node, &mv, || false, p).acts()
    }

    #[test]
    fn counts_grow_with_the_square_of_the_depth() {
        let p = Params::default();
        assert!(!prunes(1, false, false, 4, &p));
        assert!(prunes(1, false, false, 5, &p));
        assert!(!prunes(3, false, false, 12, &p));
        assert!(prunes(3, false, false, 13, &p));
        assert!(prunes(8, false, false, 68, &p));
    }

    #[test]
    fn ethereal_12_shape_two_tables_by_improving() {
        let p = Params {
            base: 2,
            quadratic: 45,
            improving_percent: 200,
            ..Params::default()
        };
        let tried = |improving| (1..=8).map(|d| count(d, improving, &p)).collect::<Vec<_>>();
        assert_eq!(tried(false), [2, 3, 6, 9, 13, 18, 24, 30]);
        assert_eq!(tried(true), [4, 7, 12, 18, 26, 36, 48, 61]);
        let default = Params::default();
        assert_eq!(count(5, true, &default), 28, "the default ignores improving");
        assert_eq!(count(5, false, &default), 28);
    }

    #[test]
    fn not_in_check_at_pv_nodes_or_beyond_max_depth() {
        let p = Params::default();
        assert!(!prunes(1, true, false, 50, &p));
        assert!(!prunes(1, false, true, 50, &p));
        assert!(!prunes(9, false, false, 500, &p));
    }
}
