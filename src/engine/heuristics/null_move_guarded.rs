//! `null_move_guarded` (002, in the window-margins listing): the null move only in the opening
//! and middlegame (`game_cnt < 30` half-moves before the search), not in check, beyond ply 2,
//! when the side to move is more than a pawn above beta in material and its 5-ply material
//! momentum is rising by more than half a pawn; searched at `depth - 3`, returning beta on a
//! fail-high.

use super::params::heuristic_params;
use super::view::NodeView;
use crate::engine::eval::PAWN;

heuristic_params! {
    /// Parameters of `null_move_guarded`.
    pub struct Params {
        /// Try the guarded null move.
        pub enabled: bool = false,
        /// Only while fewer half-moves than this were played before the search (002: 30).
        pub max_game_plies: u32 [0..=10000] = 30,
        /// Only beyond this ply (002: `ply > 2`).
        pub min_ply: u32 [0..=127] = 2,
        /// Depth reduction: the null-move search runs at `depth - 1 - reduction` (002: depth-3).
        pub reduction: i32 [0..=16] = 2,
    }
}

/// Every guard of 002 holds.
pub fn allowed(node: &NodeView, params: &Params) -> bool {
    node.game_plies < params.max_game_plies as usize
        && !node.in_check
        && !node.after_null_move
        && node.ply > params.min_ply as usize
        && node.material - PAWN > node.beta
        && node.material_momentum - PAWN / 2 > 0
}

/// Depth of the null-move search.
pub fn search_depth(node: &NodeView, params: &Params) -> i32 {
    node.depth - 1 - params.reduction
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node() -> NodeView {
        NodeView {
            depth: 6,
            ply: 3,
            beta: 50,
            game_plies: 20,
            material: 300,
            material_momentum: 100,
            ..NodeView::default()
        }
    }

    #[test]
    fn allowed_when_every_guard_holds() {
        assert!(allowed(&node(), &Params::default()));
        assert_eq!(search_depth(&node(), &Params::default()), 3);
    }

    #[test]
    fn not_late_in_the_game() {
        assert!(!allowed(
            &NodeView {
                game_plies: 30,
                ..node()
            },
            &Params::default()
        ));
    }

    #[test]
    fn not_in_check() {
        assert!(!allowed(
            &NodeView {
                in_check: true,
                ..node()
            },
            &Params::default()
        ));
    }

    #[test]
    fn not_in_the_first_two_plies() {
        assert!(!allowed(&NodeView { ply: 2, ..node() }, &Params::default()));
    }

    #[test]
    fn needs_material_a_pawn_above_beta() {
        assert!(!allowed(
            &NodeView {
                material: 150,
                ..node()
            },
            &Params::default()
        ));
    }

    #[test]
    fn needs_rising_material() {
        assert!(!allowed(
            &NodeView {
                material_momentum: 50,
                ..node()
            },
            &Params::default()
        ));
    }

    #[test]
    fn not_after_a_null_move() {
        assert!(!allowed(
            &NodeView {
                after_null_move: true,
                ..node()
            },
            &Params::default()
        ));
    }
}
