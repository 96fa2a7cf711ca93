//! `channel_breakout` (002, "Пробитие статического канала"): `MAX` is the highest of the
//! side's scores over the last 5 plies before the move. The move is searched first at reduced
//! depth, `tmp = -search(depth-2)`; that result is accepted when `tmp <= alpha`,
//! `MAX <= alpha`, the score after the move `<= alpha` and `<= MAX` (it does not break out of
//! the channel) and the move gives no check; otherwise it is searched at full depth.

use super::params::heuristic_params;
use super::view::{MoveView, NodeView};

heuristic_params! {
    /// Parameters of `channel_breakout`.
    pub struct Params {
        /// The channel breakout signal.
        pub enabled: bool = false,
    }
}

/// The move stays inside a channel below alpha: a candidate for the verified skip.
pub fn candidate(node: &NodeView, mv: &MoveView, _params: &Params) -> bool {
    let max = mv.line.max_eval5_before;
    applies(mv) && max <= node.alpha && mv.eval_after <= node.alpha && mv.eval_after <= max
}

/// The signal is consulted on a move that gives no check.
pub fn applies(mv: &MoveView) -> bool {
    !mv.gives_check
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::LineStats;

    fn node() -> NodeView {
        NodeView {
            alpha: 0,
            beta: 10,
            depth: 4,
            ..NodeView::default()
        }
    }

    fn mv(max: i32, r: i32) -> MoveView {
        MoveView {
            eval_after: r,
            line: LineStats {
                max_eval5_before: max,
                ..LineStats::default()
            },
            ..MoveView::default()
        }
    }

    #[test]
    fn inside_a_channel_below_alpha() {
        assert!(candidate(&node(), &mv(-10, -20), &Params::default()));
    }

    #[test]
    fn not_when_the_channel_reaches_alpha() {
        assert!(!candidate(&node(), &mv(5, -20), &Params::default()));
    }

    #[test]
    fn not_when_the_move_breaks_out() {
        assert!(!candidate(&node(), &mv(-30, -20), &Params::default()));
    }

    #[test]
    fn not_when_the_move_gives_check() {
        let m = MoveView {
            gives_check: true,
            ..mv(-10, -20)
        };
        assert!(!candidate(&node(), &m, &Params::default()));
    }
}
