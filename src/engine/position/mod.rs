//! The position the search walks: a cozy-chess board plus the *line*, the moves before the root
//! (game history) followed by the moves from the root to the current node.
//!
//! 002 bases most of its signals on series kept along the line, per side: `R` (the static
//! evaluation right after a move, for the side that made it) and material. They are pushed on
//! make and popped on unmake, so a node can read them back any number of plies without search
//! bookkeeping.
//!
//! 002 keeps its series "per side" but writes `x[side][N] = v; x[side^1][N] = -v` on every
//! move, so the two sides' arrays are one series seen with opposite signs. We keep that one
//! series from White's point of view (`SeriesEntry`) and flip the sign when a side reads it
//! (`LineStats`), which is exactly the document's arithmetic with half the storage.

use cozy_chess::{Board, Color, Move, Piece, Rank};

use super::eval::{self, EvalKind};
use super::moves::{captured_piece, move_changes};
use std::sync::Arc;

use super::nnue::{Accumulator, Network};
use super::score::Score;
pub use super::series::{LineStats, Periods, SeriesEntry};

/// What the line remembers about one move (or null move) and the position it produced.
#[derive(Clone, Copy, Debug)]
pub struct LineEntry {
    /// The move played; `None` for a null move.
    pub mv: Option<Move>,
    /// The side that made the move.
    pub mover: Color,
    /// `R`: static evaluation of the new position for the side that moved.
    pub r: Score,
    /// Material balance after the move, for the side that moved.
    pub material: Score,
    /// The piece captured by the move, if any.
    pub captured: Option<Piece>,
}

/// A board with its line, draw detection and per-side series.
#[derive(Clone)]
pub struct Position {
    /// `boards[k]` is the position after `k` moves of the line; `boards[0]` is where it started.
    boards: Vec<Board>,
    /// `terms[k]` are the evaluation terms of `boards[k]`, kept incrementally.
    terms: Vec<eval::Terms>,
    /// `accumulators[k]` is the NNUE's hidden layer of `boards[k]`, kept incrementally when
    /// the evaluation is the NNUE (`net`), empty otherwise.
    accumulators: Vec<Accumulator>,
    net: Option<Arc<Network>>,
    /// The network `nnue` evaluates with (`net` when the evaluation is `nnue`).
    network: Arc<Network>,
    /// `line[k]` describes the move that produced `boards[k + 1]`.
    line: Vec<LineEntry>,
    /// `series[k]` describes `boards[k]`.
    series: Vec<SeriesEntry>,
    /// Number of line moves before the search root.
    root_len: usize,
    /// Static evaluation of `boards[0]` for its side to move.
    start_eval: Score,
    eval_kind: EvalKind,
    /// The periods of the series.
    periods: Periods,
    /// The series' moving averages are kept (`line_stats` reads them); without them a series
    /// entry holds the evaluation and material alone, which is all the search reads unless a
    /// heuristic of 002 reads the line.
    averages: bool,
}

impl Position {
    /// A position starting from `board`, with no history (evaluated, under `nnue`, with the
    /// embedded network until a search sets its configuration's).
    pub fn new(board: Board, eval_kind: EvalKind) -> Self {
        Self::with_network(board, eval_kind, crate::engine::nnue::embedded())
    }

    /// A position starting from `board`, evaluated (under `nnue`) with `network`.
    pub fn with_network(board: Board, eval_kind: EvalKind, network: Arc<Network>) -> Self {
        let start_eval = eval::evaluate_with(&board, eval_kind, &network);
        let white = |score: Score| match board.side_to_move() {
            Color::White => score,
            Color::Black => -score,
        };
        let mut series = Vec::with_capacity(512);
        series.push(SeriesEntry::start(
            white(start_eval),
            eval::material(&board, Color::White),
        ));
        let mut terms = Vec::with_capacity(512);
        terms.push(eval::Terms::of(&board));
        let net = (eval_kind == EvalKind::Nnue).then(|| network.clone());
        let mut accumulators = Vec::with_capacity(if net.is_some() { 512 } else { 0 });
        accumulators.extend(net.as_ref().map(|net| Accumulator::of(&board, net)));
        let mut boards = Vec::with_capacity(512);
        boards.push(board);
        Position {
            boards,
            terms,
            accumulators,
            net,
            network,
            series,
            line: Vec::with_capacity(512),
            root_len: 0,
            start_eval,
            eval_kind,
            periods: Periods::default(),
            averages: true,
        }
    }

    /// The standard start position.
    pub fn startpos() -> Self {
        Self::new(Board::default(), EvalKind::Full)
    }

    /// The evaluation the series use.
    pub fn eval_kind(&self) -> EvalKind {
        self.eval_kind
    }

    /// Re-score the whole line with another evaluation (series included).
    pub fn set_eval_kind(&mut self, kind: EvalKind) {
        if kind != self.eval_kind {
            self.replay(kind, self.network.clone(), self.periods);
        }
    }

    /// Re-score the whole line with another network (when the evaluation is `nnue`).
    pub fn set_network(&mut self, network: &Arc<Network>) {
        if !Arc::ptr_eq(network, &self.network) {
            self.replay(self.eval_kind, network.clone(), self.periods);
        }
    }

    /// The static evaluation of the current board computed from scratch (the same score as
    /// `static_eval`, at a board's cost: `leaf_eval=scratch`).
    pub fn evaluate_from_scratch(&self) -> Score {
        eval::evaluate_with(self.board(), self.eval_kind, &self.network)
    }

    /// Recompute the series of the whole line with other periods (`ema_channel`'s).
    pub fn set_periods(&mut self, periods: Periods) {
        if periods != self.periods {
            self.replay(self.eval_kind, self.network.clone(), periods);
        }
    }

    /// Keep the series' moving averages (`line_stats`) or not: a search whose heuristics do
    /// not read the line saves computing fifteen of them at every move. The line is scored
    /// again when this changes.
    pub fn set_averages(&mut self, averages: bool) {
        if averages != self.averages {
            self.averages = averages;
            self.replay(self.eval_kind, self.network.clone(), self.periods);
        }
    }

    /// Play the line again from its start under another evaluation or periods.
    fn replay(&mut self, kind: EvalKind, network: Arc<Network>, periods: Periods) {
        let moves: Vec<Option<Move>> = self.line.iter().map(|e| e.mv).collect();
        let (root_len, averages) = (self.root_len, self.averages);
        let start = self.boards[0].clone();
        *self = Position::with_network(start, kind, network);
        self.periods = periods;
        self.averages = averages;
        for mv in moves {
            match mv {
                Some(mv) => self.make(mv),
                None => {
                    self.make_null();
                }
            }
        }
        self.root_len = root_len;
    }

    /// The current board.
    #[inline]
    pub fn board(&self) -> &Board {
        self.boards.last().expect("a position always has a board")
    }

    /// The evaluation terms of the current board.
    #[inline]
    fn terms(&self) -> &eval::Terms {
        self.terms.last().expect("a position always has terms")
    }

    /// Mark the current node as the search root: plies are counted from here.
    pub fn set_root(&mut self) {
        self.root_len = self.line.len();
    }

    /// Distance from the root.
    #[inline]
    pub fn ply(&self) -> usize {
        self.line.len() - self.root_len
    }

    /// Number of moves in the whole line (game history plus moves from the root).
    #[inline]
    pub fn line_len(&self) -> usize {
        self.line.len()
    }

    /// Number of moves played before the root (game history).
    pub fn game_len(&self) -> usize {
        self.root_len
    }

    /// The line, oldest move first.
    pub fn line(&self) -> &[LineEntry] {
        &self.line
    }

    /// The last move of the line, if any.
    pub fn last_entry(&self) -> Option<&LineEntry> {
        self.line.last()
    }

    /// The piece that made the move `back` plies ago (1: the last move) and where it went,
    /// read from the board that move produced; `None` past the start, for a null move, or
    /// for castling (cozy-chess writes it as the king taking its rook, whose square is then
    /// empty). The context of `countermove` and `continuation_history`.
    pub fn moved(&self, back: usize) -> Option<(Piece, cozy_chess::Square)> {
        let index = self.line.len().checked_sub(back)?;
        let mv = self.line[index].mv?;
        let piece = self.boards[index + 1].piece_on(mv.to)?;
        Some((piece, mv.to))
    }

    /// `L`: the static evaluation of the current node for the side to move. It is the negated
    /// `R` of the move that led here, so it costs nothing after `make`.
    #[inline]
    pub fn static_eval(&self) -> Score {
        match self.line.last() {
            Some(entry) => -entry.r,
            None => self.start_eval,
        }
    }

    /// The side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        !self.board().checkers().is_empty()
    }

    /// The move captures something (en passant included).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        captured_piece(self.board(), mv).is_some()
    }

    /// Play a legal move.
    pub fn make(&mut self, mv: Move) {
        self.make_then(mv, |_| ());
    }

    /// Make `mv`, handing the new board to `board_ready` as soon as it is known, before the
    /// evaluation is brought up to date (the search prefetches the child's table slot there).
    #[inline]
    pub fn make_then(&mut self, mv: Move, board_ready: impl FnOnce(&Board)) {
        let mover = self.board().side_to_move();
        // The new board, the terms and the accumulator are each copied once into their place
        // and changed there; the pieces the move changed are read from the boards once.
        let n = self.boards.len();
        self.boards.extend_from_within(n - 1..);
        let (done, new) = self.boards.split_at_mut(n);
        new[0].play_unchecked(mv);
        board_ready(&new[0]);
        let changes = move_changes(&done[n - 1], mv);
        // The captured piece is the one the move took off the other side's squares (en
        // passant's pawn included): read from the changes, not looked up again.
        let captured = changes
            .iter()
            .find(|c| !c.added && c.color != mover)
            .map(|c| c.piece);
        let terms = self.terms().with(&changes);
        debug_assert_eq!(
            terms,
            eval::Terms::of(self.board()),
            "incremental terms after {mv}"
        );
        if let Some(net) = &self.net {
            self.accumulators
                .extend_from_within(self.accumulators.len() - 1..);
            let acc = self.accumulators.last_mut().expect("just pushed");
            acc.change(net, &changes, self.boards.last().expect("just pushed"));
            debug_assert_eq!(
                *self.accumulator(),
                Accumulator::of(self.board(), net),
                "accumulator after {mv}"
            );
        }
        self.push(terms, Some(mv), mover, captured);
    }

    /// The NNUE accumulator of the current board (the NNUE evaluates only).
    #[inline]
    fn accumulator(&self) -> &Accumulator {
        self.accumulators
            .last()
            .expect("the NNUE keeps an accumulator per board")
    }

    /// Complete the board just appended, reached by `mv` (`None`: a null move), with its
    /// terms, its series entry and its line entry, all scored for `mover` (its accumulator, with
    /// the NNUE, is appended already).
    #[inline]
    fn push(
        &mut self,
        terms: eval::Terms,
        mv: Option<Move>,
        mover: Color,
        captured: Option<Piece>,
    ) {
        // R: the new position's evaluation for the side that moved, the negated evaluation of
        // its side to move.
        let r = match &self.net {
            Some(net) => -self.accumulator().evaluate(net, self.board()),
            None => terms.score(self.eval_kind, mover),
        };
        let material = terms.material(mover);
        self.push_series(mover, r, material);
        self.terms.push(terms);
        self.line.push(LineEntry {
            mv,
            mover,
            r,
            material,
            captured,
        });
    }

    /// Pass the move to the opponent; `false` (and nothing played) when in check.
    pub fn make_null(&mut self) -> bool {
        let before = self.board();
        let Some(after) = before.null_move() else {
            return false;
        };
        let mover = before.side_to_move();
        let terms = *self.terms();
        self.boards.push(after);
        if self.net.is_some() {
            self.accumulators
                .extend_from_within(self.accumulators.len() - 1..);
        }
        self.push(terms, None, mover, None);
        true
    }

    /// Take back the last move or null move.
    pub fn unmake(&mut self) {
        debug_assert!(self.line.len() > self.root_len, "unmake past the root");
        self.line.pop();
        self.boards.pop();
        self.terms.pop();
        self.series.pop();
        if self.net.is_some() {
            self.accumulators.pop();
        }
    }

    fn push_series(&mut self, mover: Color, r: Score, material: Score) {
        let sign = if mover == Color::White { 1 } else { -1 };
        let last = self.series.last().expect("the series has its start point");
        let next = if self.averages {
            last.next(sign * r, sign * material, &self.periods)
        } else {
            SeriesEntry::bare(sign * r, sign * material)
        };
        self.series.push(next);
    }

    /// Game plies played before the search root, counted from the start board's move
    /// counters (so an EPD position from move 30 counts as 58 or 59 plies) plus the line.
    pub fn game_plies_at_root(&self) -> usize {
        let start = &self.boards[0];
        let before = (start.fullmove_number() as usize).saturating_sub(1) * 2
            + usize::from(start.side_to_move() == Color::Black);
        before + self.root_len
    }

    /// The series as `side` reads it at the current end of the line.
    pub fn line_stats(&self, side: Color) -> LineStats {
        debug_assert!(self.averages, "line_stats without the series' averages");
        let sign = if side == Color::White { 1 } else { -1 };
        let fsign = f64::from(sign);
        let n = self.series.len() - 1;
        let now = &self.series[n];
        let back = |k: usize| &self.series[n.saturating_sub(k)];
        let window = &self.series[n.saturating_sub(4)..=n];
        let before = &self.series[n.saturating_sub(5)..n.max(1)];
        let side_eval = |e: &SeriesEntry| sign * e.eval;
        let previous = back(1);
        let (up, down) = if side == Color::White {
            (now.rsi_up, now.rsi_down)
        } else {
            (now.rsi_down, now.rsi_up)
        };
        LineStats {
            eval: side_eval(now),
            ema3: fsign * now.ema3,
            channel_fast: fsign * now.channel_fast,
            channel_slow: fsign * now.channel_slow,
            ema24: fsign * now.ema24,
            gap: (now.channel_fast - now.channel_slow).abs(),
            gap_before: (previous.channel_fast - previous.channel_slow).abs(),
            channel_dev: now.channel_dev,
            material_ema10: fsign * now.material_ema10,
            material_ema24: fsign * now.material_ema24,
            trend_a: fsign * now.trend_a(),
            trend_b: fsign * now.trend_b,
            rsi: if up + down > 0.0 {
                100.0 * up / (up + down)
            } else {
                50.0
            },
            material_momentum: sign * (now.material - back(5).material),
            eval_momentum: sign * (now.eval - back(5).eval),
            max_eval5: window.iter().map(side_eval).max().unwrap_or(0),
            min_eval5: window.iter().map(side_eval).min().unwrap_or(0),
            max_eval5_before: before.iter().map(side_eval).max().unwrap_or(0),
        }
    }

    /// Material balance for `side` at the current node.
    #[inline]
    pub fn material(&self, side: Color) -> Score {
        self.terms().material(side)
    }

    /// `side` has a piece besides its pawns and king.
    #[inline]
    pub fn has_pieces(&self, side: Color) -> bool {
        let board = self.board();
        let pawns_and_king = board.pieces(Piece::Pawn) | board.pieces(Piece::King);
        !(board.colors(side) & !pawns_and_king).is_empty()
    }

    /// The pieces of both sides besides their pawns and kings.
    #[inline]
    pub fn pieces(&self) -> u32 {
        let board = self.board();
        let pawns_and_kings = board.pieces(Piece::Pawn) | board.pieces(Piece::King);
        (board.occupied() & !pawns_and_kings).len()
    }

    /// `side`'s 5-ply material momentum at the current node (002's `MomentumMtl5`).
    #[inline]
    pub fn material_momentum(&self, side: Color) -> Score {
        let n = self.series.len() - 1;
        let white = self.series[n].material - self.series[n.saturating_sub(5)].material;
        if side == Color::White { white } else { -white }
    }

    /// `side` has a pawn on its seventh rank (one step from promotion).
    pub fn pawn_on_seventh(&self, side: Color) -> bool {
        let rank = Rank::Seventh.relative_to(side).bitboard();
        !(self.board().colored_pieces(side, Piece::Pawn) & rank).is_empty()
    }

    /// The current position is drawn by repetition, the fifty-move rule or insufficient
    /// material.
    pub fn is_draw(&self) -> bool {
        self.fifty_move_draw() || self.is_repetition() || self.insufficient_material()
    }

    /// A hundred plies without a capture or a pawn move, unless the move that reached the
    /// count gave mate: a checkmate ends the game before the rule can be claimed.
    fn fifty_move_draw(&self) -> bool {
        if self.board().halfmove_clock() < 100 {
            return false;
        }
        let mated = self.in_check() && !self.board().generate_moves(|_| true);
        !mated
    }

    /// The plies back a repetition can reach from the current position: within the fifty-move
    /// count and not past a null move (positions before it are not reachable again).
    pub fn repetition_reach(&self) -> usize {
        let current = self.line.len();
        let clock = (self.board().halfmove_clock() as usize).min(current);
        self.line[current - clock..current]
            .iter()
            .rev()
            .take_while(|entry| entry.mv.is_some())
            .count()
    }

    /// The hash of the position `back` plies before the current one (within the line).
    pub fn key_back(&self, back: usize) -> u64 {
        self.boards[self.line.len() - back].hash()
    }

    /// Repetition against the whole line, game history included. A position that already
    /// occurred on the search line (the root or after it) is a draw at its second occurrence,
    /// since the side that repeats could repeat again; one that occurred only in the game
    /// before the root needs a third occurrence, the rule of the game.
    pub fn is_repetition(&self) -> bool {
        let current = self.line.len();
        let board = self.board();
        let hash = board.hash();
        let reach = board.halfmove_clock() as usize;
        let mut earlier = 0;
        let mut back = 2;
        while back <= reach && back <= current {
            let index = current - back;
            // A null move breaks the chain: positions before it are not reachable again.
            if self.line[index..current].iter().any(|e| e.mv.is_none()) {
                break;
            }
            if self.boards[index].hash() == hash {
                if index >= self.root_len {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Neither side can mate: bare kings, a single minor piece, or bishops only, all on
    /// squares of one colour.
    pub fn insufficient_material(&self) -> bool {
        let board = self.board();
        let heavy =
            board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
        if !heavy.is_empty() {
            return false;
        }
        let knights = board.pieces(Piece::Knight);
        let bishops = board.pieces(Piece::Bishop);
        let minors = knights.len() + bishops.len();
        if minors <= 1 {
            return true;
        }
        if knights.is_empty() {
            let dark = bishops & cozy_chess::BitBoard::DARK_SQUARES;
            return dark.is_empty() || dark == bishops;
        }
        false
    }
}

#[cfg(test)]
mod tests;
