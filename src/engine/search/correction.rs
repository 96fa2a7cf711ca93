//! The static evaluation a node's decisions read: the position's own, scaled in drawish
//! endings (`endgame_scale`), damped by the fifty-move count (`fifty_move_damping`), corrected
//! by `correction_history` outside check; and what a node's result teaches that table.

use cozy_chess::{Color, Move, Piece};

use super::Searcher;
use super::gate::Point;
use crate::engine::heuristics::correction_history::{self, Keys, non_pawn_key, pawn_key};
use crate::engine::heuristics::view::{Decision, NodeView};
use crate::engine::heuristics::{endgame_scale, fifty_move_damping};
use crate::engine::score::Score;
use crate::engine::stats::{Counter, counter};
use crate::engine::tt::Bound;

impl Searcher {
    /// `eval`, the current node's static evaluation, as its decisions read it: at an interior
    /// node, or at quiescence's stand pat (`quiescence`).
    pub(super) fn corrected_eval(
        &mut self,
        eval: Score,
        in_check: bool,
        quiescence: bool,
    ) -> Score {
        let eval = self.uncorrected_eval(eval, quiescence, true);
        let counter = if quiescence {
            counter!(CorrectionHistory.quiescence)
        } else {
            counter!(CorrectionHistory.node)
        };
        self.gate(counter, Point::Unaudited, |s| {
            let form_on = !quiescence || s.config.heuristics.correction_history.quiescence;
            let params = &s.config.heuristics.correction_history;
            let correction = s.state.corrections.correction(s.keys(), params);
            correction_history::corrected(eval, (in_check, form_on), correction)
        })
        .unwrap_or(eval)
    }

    /// `eval` before any correction: the position's own, scaled toward a draw in the endings
    /// that material does not win (`endgame_scale`, Ethereal 12's order: inside its
    /// evaluation), then brought toward a draw by the fifty-move count (`fifty_move_damping`,
    /// Stockfish's order: after it). Counted when `counted`: the node's reading is; step 10's
    /// lesson asks the same decisions again, so that the correction learns against the value
    /// it corrects.
    fn uncorrected_eval(&mut self, eval: Score, quiescence: bool, counted: bool) -> Score {
        let (scale, damping) = if quiescence {
            (
                counter!(EndgameScale.quiescence),
                counter!(FiftyMoveDamping.quiescence),
            )
        } else {
            (counter!(EndgameScale.node), counter!(FiftyMoveDamping.node))
        };
        let decision = self.ask(scale, |s| {
            endgame_scale::scaled(s.pos.board(), eval, &s.config.heuristics.endgame_scale)
        });
        let eval = self.counted(scale, decision, counted).unwrap_or(eval);
        let decision = self.ask(damping, |s| {
            let clock = u32::from(s.pos.board().halfmove_clock());
            fifty_move_damping::damped(eval, clock, &s.config.heuristics.fifty_move_damping)
        });
        self.counted(damping, decision, counted).unwrap_or(eval)
    }

    /// A decision's value, counted (and offered to the audit) only when `counted`.
    fn counted(
        &mut self,
        counter: Counter,
        decision: Decision<Score>,
        counted: bool,
    ) -> Option<Score> {
        if counted {
            self.count(counter, Point::Unaudited, decision)
        } else {
            decision.value()
        }
    }

    /// Step 10's lesson: a node searched to `node.depth` found `score` (of `bound`, best move
    /// `best`) where its uncorrected evaluation said otherwise. Audit searches teach nothing:
    /// they must leave the state as they found it.
    pub(super) fn learn_correction(
        &mut self,
        node: &NodeView,
        (score, bound): (Score, Bound),
        best: Option<Move>,
    ) {
        if !self
            .plan
            .on(crate::engine::heuristics::Id::CorrectionHistory)
            || self.audit.searching
        {
            return;
        }
        let eval = self.uncorrected_eval(self.pos.static_eval(), false, false);
        let best_is_capture = best.is_some_and(|mv| self.pos.is_capture(mv));
        let bounds = (bound == Bound::Lower, bound == Bound::Upper);
        if let Some(error) =
            correction_history::teaches((score, eval), bounds, node.in_check, best_is_capture)
        {
            let at = self.keys();
            let params = &self.config.heuristics.correction_history;
            self.state.corrections.learn(at, node.depth, error, params);
        }
    }

    /// The side to move and the keys of the pawn structure and of each colour's other pieces
    /// (those only where `non_pawn` reads them).
    fn keys(&self) -> Keys {
        let board = self.pos.board();
        let pawns = |color| board.colored_pieces(color, Piece::Pawn).0;
        let pieces = |color| {
            [
                Piece::Knight,
                Piece::Bishop,
                Piece::Rook,
                Piece::Queen,
                Piece::King,
            ]
            .map(|piece| board.colored_pieces(color, piece).0)
        };
        let non_pawn = if self.config.heuristics.correction_history.non_pawn {
            [Color::White, Color::Black].map(|color| non_pawn_key(pieces(color)))
        } else {
            [0; 2]
        };
        Keys {
            side: board.side_to_move() as usize,
            pawn: pawn_key(pawns(Color::White), pawns(Color::Black)),
            non_pawn,
        }
    }
}
