//! What the root searches: the moves it was given (UCI `searchmoves`), the lines it reports
//! (UCI `MultiPV`) and the previous iteration's PV; and the nodes each root move took.

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
    /// The nodes searched under each root move this search, by from and to square (a
    /// promotion's pieces share one count).
    nodes_by_move: Vec<u64>,
}

impl Default for RootOptions {
    fn default() -> Self {
        RootOptions {
            moves: Vec::new(),
            multipv: 1,
            excluded: Vec::new(),
            previous_pv: Vec::new(),
            nodes_by_move: vec![0; 64 * 64],
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

    /// Forget where the last search's nodes went.
    pub fn clear_spent(&mut self) {
        self.nodes_by_move.fill(0);
    }

    /// The search of root move `mv` took `nodes` more.
    pub fn spent(&mut self, mv: Move, nodes: u64) {
        self.nodes_by_move[Self::index(mv)] += nodes;
    }

    /// The share of the root's nodes this search that went to `mv` (0 before any).
    pub fn share(&self, mv: Move) -> f64 {
        let total: u64 = self.nodes_by_move.iter().sum();
        if total == 0 {
            return 0.0;
        }
        self.nodes_by_move[Self::index(mv)] as f64 / total as f64
    }

    fn index(mv: Move) -> usize {
        mv.from as usize * 64 + mv.to as usize
    }
}
