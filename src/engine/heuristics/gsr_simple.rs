//! `gsr_simple` (002, "Еще пример реализации попроще"): the simpler documented GSR. The node's
//! crossover point is `1 + rand() % 56`; moves up to it, checks, captures, promotions, moves in
//! the first 2 plies, moves while material is rising, and moves into the horizon are searched
//! normally; the rest get a null-window search one ply shallower and a full re-search when it
//! fails high.
//!
//! Readings of the listing, decided here:
//! - **`ply <= 2`** is 002's ply of the move (1 at the root's moves, see `gsr.rs`): the first
//!   two half-moves are searched normally, `node.ply + 1 <= MIN_PLY` in our node terms.
//! - **Precedence.** The listing's last condition reads `(rising) && legal_cnt <= GSR` after
//!   four `||`, so C binds it as `rising AND before the crossover`: a move before the crossover
//!   on a line whose material is not rising would be reduced, even the first legal move,
//!   against the listing's own comment ("случайный выбор - первый всегда") and the prose
//!   ("сокращать на 1 у всех за этой точкой"). The default follows the comment and the prose
//!   (`rising OR before the crossover`); `literal_precedence=true` runs the listing as C reads
//!   it, so the difference can be measured.
//! - **Pawn-to-7th.** The prose also spares "угрозы превращения пешек" (pawn moves to the 7th);
//!   the listing and the specification do not. Off by default; `spare_pawn_to_seventh=true`
//!   adds it.

use super::params::heuristic_params;
use super::view::{Decision, MoveView, NodeView};

heuristic_params! {
    /// Parameters of `gsr_simple`.
    pub struct Params {
        /// The simple GSR.
        pub enabled: bool = false,
        /// The crossover point is `rand() % cross_range + 1` (002: 56).
        pub cross_range: u32 [1..=256] = 56,
        /// The moves of the first this many half-moves are searched normally (002: `ply <= 2`).
        pub min_ply: u32 [0..=127] = 2,
        /// Read the listing's `rising && legal_cnt <= GSR` as C binds it (an AND) instead of
        /// as its comment and prose mean it (an OR).
        pub literal_precedence: bool = false,
        /// Also search pawn moves to the 7th normally (002's prose, not its listing).
        pub spare_pawn_to_seventh: bool = false,
    }
}

/// The move is "bad": reduce it by one with a null window. It applies to a quiet move that
/// gives no check, with depth left, beyond `min_ply`; it acts unless material is rising or the
/// move comes before the crossover point (002's `good_move`).
pub fn reduces(node: &NodeView, mv: &MoveView, cross: usize, params: &Params) -> Decision {
    let rising = mv.line.material_momentum > 0;
    let before_crossover = mv.legal_count <= cross;
    let chosen = if params.literal_precedence {
        rising && before_crossover
    } else {
        rising || before_crossover
    };
    // 002's `ply <= 2`, its ply of the move being `node.ply + 1`.
    let spared = node.ply < params.min_ply as usize
        || mv.gives_check
        || node.depth - 1 <= 0
        || mv.capture
        || mv.promotion
        || (params.spare_pawn_to_seventh && mv.pawn_to_seventh);
    Decision::when(!spared, !chosen)
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
        assert!(reduces(&node(), &late(), 10, &Params::default()).acts());
        assert!(
            !reduces(&node(), &late(), 20, &Params::default()).acts(),
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
        ).acts());
        assert!(!reduces(
            &node(),
            &MoveView {
                capture: true,
                ..late()
            },
            10,
            &p
        ).acts());
        assert!(!reduces(
            &node(),
            &MoveView {
                promotion: true,
                ..late()
            },
            10,
            &p
        ).acts());
        assert!(!reduces(&NodeView { ply: 1, ..node() }, &late(), 10, &p).acts());
        assert!(!reduces(&NodeView { depth: 1, ..node() }, &late(), 10, &p).acts());
        let mut rising = late();
        rising.line.material_momentum = 1;
        assert!(!reduces(&node(), &rising, 10, &p).acts());
    }

    #[test]
    fn literal_precedence_needs_rising_material_and_the_crossover() {
        let literal = Params {
            literal_precedence: true,
            ..Params::default()
        };
        let first = MoveView {
            legal_count: 1,
            ..late()
        };
        assert!(!reduces(&node(), &first, 10, &Params::default()).acts());
        assert!(
            reduces(&node(), &first, 10, &literal).acts(),
            "as C reads it, a first move on a line without rising material is reduced"
        );
        let mut rising_late = late();
        rising_late.line.material_momentum = 1;
        assert!(!reduces(&node(), &rising_late, 10, &Params::default()).acts());
        assert!(reduces(&node(), &rising_late, 10, &literal).acts());
    }

    #[test]
    fn pawn_to_seventh_is_spared_only_when_asked() {
        let pawn = MoveView {
            pawn_to_seventh: true,
            ..late()
        };
        assert!(reduces(&node(), &pawn, 10, &Params::default()).acts());
        let spare = Params {
            spare_pawn_to_seventh: true,
            ..Params::default()
        };
        assert!(!reduces(&node(), &pawn, 10, &spare).acts());
    }

    #[test]
    fn the_first_two_half_moves_are_searched_normally() {
        let p = Params::default();
        assert!(!reduces(&NodeView { ply: 0, ..node() }, &late(), 10, &p).acts());
        assert!(!reduces(&NodeView { ply: 1, ..node() }, &late(), 10, &p).acts());
        assert!(reduces(&NodeView { ply: 2, ..node() }, &late(), 10, &p).acts());
    }
}
