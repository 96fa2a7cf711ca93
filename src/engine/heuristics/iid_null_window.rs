//! `iid_null_window` (002, "Вариант внутреннего углубления поиска"): a nega-scout move loop with
//! internal iterative deepening in the null window. The first legal move (or one whose next
//! depth is <= 0) gets a full-window search at `next_depth - 1` first when `next_depth > 1`
//! (to fill the ordering tables), then at `next_depth`. Every later move gets a null-window
//! search at `next_depth - 1`; then a null-window search at `next_depth` when that beat alpha,
//! the node is shallow (`depth <= 2`), or the move is a check, a pawn to the 7th, a capture or
//! promotion, or comes before the GSR random bound; then a full-window search at `next_depth`
//! when that beat alpha.

use super::params::heuristic_params;
use super::view::{MoveView, NodeView};

heuristic_params! {
    /// Parameters of `iid_null_window`.
    pub struct Params {
        /// Nega-scout with internal iterative deepening.
        pub enabled: bool = false,
        /// Nodes at or below this depth always get the full-depth null-window search (002: 2).
        pub shallow_depth: i32 [0..=127] = 2,
    }
}

/// The move is searched as the node's first (full-window) move.
pub fn leads(mv: &MoveView, next_depth: i32) -> bool {
    mv.legal_count == 1 || next_depth <= 0
}

/// The move's shallower null-window probe may stand, when it fails low: the node is deeper
/// than `shallow_depth`, the move is not forcing (no check, pawn to the 7th, capture or
/// promotion) and comes at or after the GSR random bound. Where this is false the move is
/// always searched at full depth, so the heuristic cannot act (and is not `tested`).
pub fn may_stay_shallow(node: &NodeView, mv: &MoveView, cross: usize, params: &Params) -> bool {
    node.depth > params.shallow_depth
        && !mv.gives_check
        && !mv.pawn_to_seventh
        && !mv.capture
        && !mv.promotion
        && mv.legal_count >= cross
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node() -> NodeView {
        NodeView {
            depth: 6,
            ply: 3,
            ..NodeView::default()
        }
    }

    fn late() -> MoveView {
        MoveView {
            legal_count: 30,
            ..MoveView::default()
        }
    }

    #[test]
    fn first_move_and_horizon_moves_lead() {
        assert!(leads(
            &MoveView {
                legal_count: 1,
                ..late()
            },
            5
        ));
        assert!(leads(&late(), 0));
        assert!(!leads(&late(), 3));
    }

    #[test]
    fn a_late_quiet_move_may_stay_shallow() {
        assert!(may_stay_shallow(&node(), &late(), 10, &Params::default()));
    }

    #[test]
    fn each_condition_forces_the_full_depth() {
        let p = Params::default();
        let forced = |node: NodeView, mv: MoveView, cross: usize| {
            !may_stay_shallow(&node, &mv, cross, &p)
        };
        assert!(forced(NodeView { depth: 2, ..node() }, late(), 10));
        assert!(forced(node(), MoveView { gives_check: true, ..late() }, 10));
        assert!(forced(node(), MoveView { pawn_to_seventh: true, ..late() }, 10));
        assert!(forced(node(), MoveView { capture: true, ..late() }, 10));
        assert!(forced(node(), MoveView { promotion: true, ..late() }, 10));
        assert!(forced(node(), late(), 31));
    }
}
