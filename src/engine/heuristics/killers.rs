//! `killers` (003, 001): a quiet move that raised alpha is tried early at the same ply in the
//! neighbouring positions. Exactly Ifrit's form (003): two slots per ply, `killer2 = killer1;
//! killer1 = move` on every alpha raise by a quiet move, never a capture, promotion or other
//! special move (castling, en passant); used only at the ply where it was found. The picker
//! inserts the killers at position 0 when the node has no capture, else at position 1, after
//! the (best) capture.

use cozy_chess::Move;

use super::params::heuristic_params;
use crate::engine::score::MAX_PLY;

heuristic_params! {
    /// Parameters of `killers`.
    pub struct Params {
        /// Try killer moves early.
        pub enabled: bool = false,
        /// Killer slots per ply: 003 uses two ("two killers noticeably improve efficiency").
        pub slots: u32 [1..=2; structural] = 2,
    }
}

/// Two killer slots per ply.
#[derive(Clone)]
pub struct Killers {
    table: Box<[[Option<Move>; 2]; MAX_PLY]>,
}

impl Default for Killers {
    fn default() -> Self {
        Killers {
            table: Box::new([[None; 2]; MAX_PLY]),
        }
    }
}

impl Killers {
    /// 003's `Save_killer`: the new move goes to slot 1, the old slot 1 to slot 2.
    pub fn record(&mut self, ply: usize, mv: Move, params: &Params) {
        let slots = &mut self.table[ply];
        if params.slots >= 2 {
            slots[1] = slots[0];
        }
        slots[0] = Some(mv);
    }

    /// The killers of `ply`, slot 1 first.
    pub fn at(&self, ply: usize) -> [Option<Move>; 2] {
        self.table[ply]
    }

    /// Forget every killer.
    pub fn clear(&mut self) {
        self.table.fill([None; 2]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_shifts_slot_one_into_slot_two() {
        let p = Params {
            enabled: true,
            ..Params::default()
        };
        let mut k = Killers::default();
        let (a, b): (Move, Move) = ("g1f3".parse().unwrap(), "b1c3".parse().unwrap());
        k.record(4, a, &p);
        k.record(4, b, &p);
        assert_eq!(k.at(4), [Some(b), Some(a)]);
        assert_eq!(k.at(3), [None, None], "killers stay at their ply");
        let one = Params { slots: 1, ..p };
        let mut k = Killers::default();
        k.record(2, a, &one);
        k.record(2, b, &one);
        assert_eq!(k.at(2), [Some(b), None]);
    }
}
