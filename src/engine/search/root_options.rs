//! What the root searches: the moves it was given (UCI `searchmoves`), the lines it reports
//! (UCI `MultiPV`) and the previous iteration's PV.

use cozy_chess::Move;

/// What the root searches.
pub(super) struct RootOptions {
    /// The root moves to search (UCI `searchmoves`); empty: every legal move.
    pub moves: Vec<Move>,
    /// Lines searched per iteration (UCI `MultiPV`), the best first.
    pub multipv: usize,
    /// Root moves left out of the current search: the first moves of the iteration's better
    /// lines, while a further MultiPV line is searched.
    pub excluded: Vec<Move>,
    /// The PV of the last completed iteration (`pv_move`).
    pub previous_pv: Vec<Move>,
}

impl Default for RootOptions {
    fn default() -> Self {
        RootOptions {
            moves: Vec::new(),
            multipv: 1,
            excluded: Vec::new(),
            previous_pv: Vec::new(),
        }
    }
}

impl RootOptions {
    /// The root searches `mv` in the current line: one of the moves it was given, not one a
    /// better MultiPV line already took.
    pub fn searches(&self, mv: &Move) -> bool {
        self.allows(mv) && !self.excluded.contains(mv)
    }

    /// `mv` is one of the moves the root was given (all when none were).
    pub fn allows(&self, mv: &Move) -> bool {
        self.moves.is_empty() || self.moves.contains(mv)
    }
}
