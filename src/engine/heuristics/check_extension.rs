//! `check_extension` (001: "extend checks"; 002 also extends pawn moves to the seventh rank,
//! `nextDepth = depth-1 + (moveDoCheck || moveDoPawnRank7)`): such a move is searched one ply
//! deeper.

use super::params::heuristic_params;
use super::view::{Decision, MoveView};

heuristic_params! {
    /// Parameters of `check_extension`.
    pub struct Params {
        /// Extend checks.
        pub enabled: bool = false,
        /// Also extend pawn moves to the seventh rank (002).
        pub pawn_to_seventh: bool = true,
    }
}

/// Plies the move is extended by: it applies to a check (or a pawn to the seventh) and acts
/// unless the singular extension already extends the move (the two do not add up: the search
/// takes the larger), so that `fired` counts the plies this heuristic added.
pub fn extension(mv: &MoveView, params: &Params) -> Decision<i32> {
    let applies = mv.gives_check || (params.pawn_to_seventh && mv.pawn_to_seventh);
    Decision::with(applies, (mv.singular == 0).then_some(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_extend() {
        let mv = MoveView {
            gives_check: true,
            ..MoveView::default()
        };
        assert_eq!(extension(&mv, &Params::default()).value().unwrap_or(0), 1);
        assert_eq!(extension(&MoveView::default(), &Params::default()), Decision::Inapplicable);
    }

    #[test]
    fn a_singular_check_is_the_singular_extension_s() {
        let mv = MoveView {
            gives_check: true,
            singular: 1,
            ..MoveView::default()
        };
        assert_eq!(extension(&mv, &Params::default()), Decision::Declines);
    }

    #[test]
    fn pawn_to_seventh_extends_only_with_the_sub_toggle() {
        let mv = MoveView {
            pawn_to_seventh: true,
            ..MoveView::default()
        };
        assert_eq!(extension(&mv, &Params::default()).value().unwrap_or(0), 1);
        let off = Params {
            pawn_to_seventh: false,
            ..Params::default()
        };
        assert_eq!(extension(&mv, &off).value().unwrap_or(0), 0);
    }
}
