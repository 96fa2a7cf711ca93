//! `gsr_simple` (002, "Еще пример реализации попроще"): the simpler documented GSR. The node's
//! crossover point is `1 + rand() % 56`; moves up to it, checks, captures, promotions, moves in
//! the first 2 plies, moves while material is rising, and moves into the horizon are searched
//! normally; the rest get a null-window search one ply shallower and a full re-search when it
//! fails high.

use super::params::heuristic_params;
use super::view::{MoveView, NodeView};

heuristic_params! {
    /// Parameters of `gsr_simple`.
    pub struct Params {
        /// The simple GSR.
        pub enabled: bool = false,
        /// The crossover point is `rand() % cross_range + 1` (002: 56).
        pub cross_range: u32 [1..=256] = 56,
        /// The first plies are searched normally (002: `ply <= 2`).
        pub min_ply: u32 [0..=127] = 2,
    }
}

/// The move is "bad": reduce it by one with a null window.
pub fn reduces(node: &NodeView, mv: &MoveView, cross: usize, params: &Params) -> bool {
    let good = node.ply < params.min_ply as usize
        || mv.gives_check
        || node.depth - 1 <= 0
        || mv.capture
        || mv.promotion
        || mv.line.material_momentum > 0
        || mv.legal_count <= cross;
    !good
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node() -> NodeView {
        NodeView {
            depth: 4,
            ply: 3,
            ..NodeView::default()
        }
    }

    fn late() -> MoveView {
        MoveView {
            legal_count: 20,
            ..MoveView::default()
        }
    }

    #[test]
    fn late_quiet_moves_are_reduced() {
        assert!(reduces(&node(), &late(), 10, &Params::default()));
        assert!(
            !reduces(&node(), &late(), 20, &Params::default()),
            "up to the crossover: good"
        );
    }

    #[test]
    fn good_moves_are_not() {
        let p = Params::default();
        assert!(!reduces(
            &node(),
            &MoveView {
                gives_check: true,
                ..late()
            },
            10,
            &p
        ));
        assert!(!reduces(
            &node(),
            &MoveView {
                capture: true,
                ..late()
            },
            10,
            &p
        ));
        assert!(!reduces(
            &node(),
            &MoveView {
                promotion: true,
                ..late()
            },
            10,
            &p
        ));
        assert!(!reduces(&NodeView { ply: 1, ..node() }, &late(), 10, &p));
        assert!(!reduces(&NodeView { depth: 1, ..node() }, &late(), 10, &p));
        let mut rising = late();
        rising.line.material_momentum = 1;
        assert!(!reduces(&node(), &rising, 10, &p));
    }
}
