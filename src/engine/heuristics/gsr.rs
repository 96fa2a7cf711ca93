//! `gsr`, genetic search reduction (002). Each node draws a crossover point
//! `cross = rand() % 56 + 1` (56 ≈ 40 moves × √2) from the search's seeded PRNG; moves before
//! it count as "good", moves after it as "bad" and are searched less deeply. Per legal move:
//! - `R = 0` for the first legal move, a check, a pawn move to the 7th, or when
//!   `depth - 1 <= 0`;
//! - else `R = RED2` when `ply > MIN_PLY`, `depth > MIN_DEPTH`, the move is not a capture or
//!   promotion, `legal_count > cross` and 002's `SpechialCondition`: `game_cnt + ply > 5` and
//!   material has not risen over the last 5 plies;
//! - else `R = RED1` when `ply > MIN_PLY`; else 0.
//!
//! The move is searched at `depth - 1 - R`; if that beats alpha and `R > 0`, again at
//! `depth - 1`.
//!
//! Readings of the listing, decided here:
//! - **002's `ply` is the ply of the move**, counted from 1 at the root's moves: 002's programs
//!   increment `ply` as they make the move (`MakeMove(); ply++;` in the momentum listing) and
//!   read `material[side][game_cnt+ply]` as the material *after* it. So `ply > MIN_PLY = 2`
//!   spares the moves of the first two half-moves (the root's and its children's), as the
//!   prose ("кроме первых двух полуходов") and `gsr_simple`'s `ply <= 2` also say. In our
//!   node terms (root = ply 0) that is `node.ply + 1 > MIN_PLY`.
//! - **The `game_cnt + ply > 5` guard is applied**: with fewer than 5 half-moves of game and
//!   line behind the move, 002 has no 5-ply material history and gives only RED1. `game_cnt`
//!   is the game's half-moves before the root, read from the start position's move counters
//!   and the moves played to the root (`NodeView::game_plies`).

use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};

heuristic_params! {
    /// Parameters of `gsr`.
    pub struct Params {
        /// Genetic search reduction.
        pub enabled: bool = false,
        /// The crossover point is `rand() % cross_range + 1` (002: 56).
        pub cross_range: u32 [1..=256] = 56,
        /// No reduction of the moves of the first this many half-moves (002: MIN_PLY = 2).
        pub min_ply: u32 [0..=127] = 2,
        /// RED2 only above this depth (002: MIN_DEPTH = 2).
        pub min_depth: i32 [0..=127] = 2,
        /// The small reduction (002: RED1 = 1).
        pub red1: i32 [0..=16] = 1,
        /// The large reduction (002: RED2 = 2).
        pub red2: i32 [0..=16] = 2,
    }
}

/// The node's crossover point from one PRNG draw.
pub fn crossover(draw: u32, cross_range: u32) -> usize {
    (draw % cross_range.max(1)) as usize + 1
}

/// 002's `SpechialCondition`: 5 half-moves of history exist behind the move
/// (`game_cnt + ply > 5`) and material has not risen over them.
fn special_condition(node: &NodeView, mv: &MoveView) -> bool {
    node.game_plies + node.ply + 1 > 5 && mv.line.material_momentum <= 0
}

/// The reduction `R` of a move. It applies to every move but the first, a check or a pawn to
/// the seventh, with depth left and beyond `min_ply`; RED2 past the crossover point under
/// 002's `SpechialCondition`, else RED1 (acting when positive).
pub fn reduction(node: &NodeView, mv: &MoveView, cross: usize, params: &Params) -> Decision<i32> {
    let applies = mv.legal_count != 1
        && !mv.gives_check
        && !mv.pawn_to_seventh
        && node.depth - 1 > 0
        && node.ply + 1 > params.min_ply as usize;
    let r = if node.depth > params.min_depth
        && !mv.capture
        && !mv.promotion
        && mv.legal_count > cross
        && special_condition(node, mv)
    {
        params.red2
    } else {
        params.red1
    };
    Decision::with(applies, (r > 0).then_some(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node() -> NodeView {
        NodeView {
            depth: 5,
            ply: 3,
            alpha: 0,
            beta: 10,
            game_plies: 20,
            ..NodeView::default()
        }
    }

    fn late_quiet() -> MoveView {
        MoveView {
            legal_count: 30,
            ..MoveView::default()
        }
    }

    #[test]
    fn crossover_is_one_to_fifty_six() {
        assert_eq!(crossover(0, 56), 1);
        assert_eq!(crossover(55, 56), 56);
        assert_eq!(crossover(56, 56), 1);
    }

    #[test]
    fn late_quiet_move_beyond_the_crossover_gets_red2() {
        assert_eq!(reduction(&node(), &late_quiet(), 10, &Params::default()).value().unwrap_or(0), 2);
    }

    #[test]
    fn before_the_crossover_gets_red1() {
        assert_eq!(reduction(&node(), &late_quiet(), 40, &Params::default()).value().unwrap_or(0), 1);
    }

    #[test]
    fn first_move_check_and_pawn_to_seventh_are_not_reduced() {
        let p = Params::default();
        assert_eq!(
            reduction(
                &node(),
                &MoveView {
                    legal_count: 1,
                    ..late_quiet()
                },
                10,
                &p
            ).value().unwrap_or(0),
            0
        );
        assert_eq!(
            reduction(
                &node(),
                &MoveView {
                    gives_check: true,
                    ..late_quiet()
                },
                10,
                &p
            ).value().unwrap_or(0),
            0
        );
        assert_eq!(
            reduction(
                &node(),
                &MoveView {
                    pawn_to_seventh: true,
                    ..late_quiet()
                },
                10,
                &p
            ).value().unwrap_or(0),
            0
        );
    }

    #[test]
    fn nothing_to_reduce_at_the_last_ply() {
        assert_eq!(
            reduction(
                &NodeView { depth: 1, ..node() },
                &late_quiet(),
                10,
                &Params::default()
            ).value().unwrap_or(0),
            0
        );
    }

    #[test]
    fn captures_promotions_and_rising_material_get_red1_only() {
        let p = Params::default();
        assert_eq!(
            reduction(
                &node(),
                &MoveView {
                    capture: true,
                    ..late_quiet()
                },
                10,
                &p
            ).value().unwrap_or(0),
            1
        );
        assert_eq!(
            reduction(
                &node(),
                &MoveView {
                    promotion: true,
                    ..late_quiet()
                },
                10,
                &p
            ).value().unwrap_or(0),
            1
        );
        let mut rising = late_quiet();
        rising.line.material_momentum = 100;
        assert_eq!(reduction(&node(), &rising, 10, &p).value().unwrap_or(0), 1);
    }

    #[test]
    fn shallow_nodes_get_red1_only() {
        assert_eq!(
            reduction(
                &NodeView { depth: 2, ..node() },
                &late_quiet(),
                10,
                &Params::default()
            ).value().unwrap_or(0),
            1
        );
    }

    #[test]
    fn the_first_two_half_moves_are_never_reduced() {
        let p = Params::default();
        // The root's moves (002's ply 1) and its children's (ply 2) are spared; the
        // grandchildren's (ply 3) are reduced.
        for (node_ply, r) in [(0, 0), (1, 0), (2, 2)] {
            let n = NodeView {
                ply: node_ply,
                ..node()
            };
            assert_eq!(reduction(&n, &late_quiet(), 10, &p).value().unwrap_or(0), r, "node ply {node_ply}");
        }
    }

    #[test]
    fn without_five_half_moves_of_history_only_red1() {
        // 002's `game_cnt + ply > 5`: a search from the start position has no 5-ply
        // material history at its move ply 4 or 5, so no RED2 there.
        let p = Params::default();
        let fresh = |ply| NodeView {
            ply,
            game_plies: 0,
            ..node()
        };
        assert_eq!(reduction(&fresh(3), &late_quiet(), 10, &p).value().unwrap_or(0), 1, "move ply 4");
        assert_eq!(reduction(&fresh(4), &late_quiet(), 10, &p).value().unwrap_or(0), 1, "move ply 5");
        assert_eq!(reduction(&fresh(5), &late_quiet(), 10, &p).value().unwrap_or(0), 2, "move ply 6");
    }
}
