//! The move picker: a list of stages walked in order, each yielding its moves once.
//!
//! With no ordering heuristic on, the picker reproduces the documents' baseline: captures first,
//! in generation order, then the quiet moves in generation order (003: "the generator is made
//! so that captures always come first"). Each ordering heuristic that is on adds its stage (hash move, sorted
//! captures, killers, history-sorted quiets) to the stage list; no stage ever yields a move that
//! an earlier stage yielded.

use arrayvec::ArrayVec;
use cozy_chess::{Board, Move, Square};

use super::heuristics::{mvv_lva, see};
use super::movegen::{
    MAX_MOVES, capture_targets, generate_captures_into, generate_quiets, generate_quiets_into,
};
use super::shuffle::shuffle;

/// Where the picker took a move from, so the search can credit the heuristic that promoted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The previous iteration's PV move (`pv_move`).
    Pv,
    /// The transposition table's move (`tt`).
    Hash,
    /// A killer (`killers`).
    Killer,
    /// The countermove (`countermove`).
    Counter,
    /// A capture; `sorted` when MVV/LVA ordered it, `losing` when `see` put it after the
    /// killers and the countermove for losing material.
    Capture {
        /// Ordered by `mvv_lva`.
        sorted: bool,
        /// Demoted by `see`.
        losing: bool,
    },
    /// Any other move (sorted by history and mate history when they are on).
    Quiet,
}

/// The picker's stages, walked in order. Ifrit's killer insertion (003) is the `LeadCapture`
/// stage: with killers on, one capture (the best one when MVV/LVA sorts) comes before them,
/// so they land at position 1, or at position 0 when the node has no capture. With `see`
/// ordering the lead is every capture that does not lose material, and the losing ones come
/// after the killers and the countermove (the modern order: good captures, killers,
/// countermove, bad captures, quiets). Without it the countermove comes after the captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The previous iteration's PV move.
    Pv,
    /// The hash move.
    Hash,
    /// The first capture, ahead of the killers.
    LeadCapture,
    /// Killer slots 1 and 2.
    Killers,
    /// The countermove, when `see` orders the captures.
    CounterBeforeCaptures,
    /// Captures (en passant and capture-promotions included).
    Captures,
    /// The countermove, when `see` does not order the captures.
    CounterAfterCaptures,
    /// Every other move: quiet moves, quiet promotions, castling.
    Quiets,
    /// Nothing left.
    Done,
}

/// What the ordering heuristics contribute at one node.
#[derive(Clone, Copy, Default)]
pub struct Ordering<'a> {
    /// The previous iteration's PV move at this node.
    pub pv_move: Option<Move>,
    /// The transposition table's move.
    pub hash_move: Option<Move>,
    /// Killers of this ply (`killers` on).
    pub killers: Option<[Option<Move>; 2]>,
    /// MVV/LVA capture ordering (`mvv_lva` on) and where the opponent's last move landed.
    pub mvv_lva: Option<(&'a super::heuristics::mvv_lva::Params, Option<Square>)>,
    /// Quiet moves are sorted by the key `next_pick` is given, highest first (history and
    /// mate history when they are on); without it they keep their base order.
    pub scores_quiets: bool,
    /// The base order of quiet moves: generation order (`None`), or a permutation drawn from
    /// this seed (`quiet_order=shuffled`).
    pub shuffle_quiets: Option<u64>,
    /// The refutation of the previous move (`countermove` on).
    pub counter: Option<Move>,
    /// Captures that lose material (static exchange) go after the killers (`see.order`).
    pub see_order: bool,
}

/// The keys the search gives moves beyond their static order, each read when its kind of move
/// is generated: the quiet moves' (their histories, when `scores_quiets`), and a capture's key
/// from its MVV/LVA key (`capture_history`; `None` keeps MVV/LVA's).
#[derive(Clone, Copy)]
pub struct MoveKeys<'k> {
    pub quiet: &'k dyn Fn(Move) -> i32,
    pub capture: Option<&'k dyn Fn(Move, i32) -> i32>,
}

impl MoveKeys<'_> {
    /// No keys beyond the static order.
    pub const NONE: MoveKeys<'static> = MoveKeys {
        quiet: &|_| 0,
        capture: None,
    };
}

/// Where one kind of move (captures or quiet moves) lies in the picker's list, in its base
/// order, and how far it has been taken.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    next: usize,
    end: usize,
    /// Keys were given: take the highest key first; else take the moves in their base order.
    keyed: bool,
}

/// The moves of one node as they are generated, with their keys beside them. Moves are taken
/// out of a span one at a time: the highest key first, the earlier move first among equal
/// keys, which is the order a stable sort gives, found by selection so that a node cut off
/// after its first moves never sorts the rest (Ethereal's and Weiss's pickers select in the
/// same way). Each key is packed with its move's place in the list (`packed_key`), so that no
/// two are equal and key order alone is that order: the keys are swapped and sorted unstably,
/// a single array of numbers, and the moves stay where they were generated. The lists live
/// where the node that walks them declares them and the picker borrows them: a picker holding
/// its lists by value (2.5 KB of arrays, copied whole whenever the picker is moved, unused
/// slots included) cost 4-5% of the search in copies.
#[derive(Default)]
pub struct PickerLists {
    /// The moves in generation order, never reordered.
    moves: ArrayVec<Move, MAX_MOVES>,
    /// Each span's packed keys, in the order their moves are taken as far as taken.
    keys: ArrayVec<i64, MAX_MOVES>,
    /// With `see` ordering, the captures found to lose material while the leading ones were
    /// taken, in their order: they come after the killers and the countermove.
    losing: ArrayVec<Move, MAX_MOVES>,
}

/// `key` of the move at `place` in the list, packed so that a higher key comes first and an
/// earlier place first among equal keys (`MAX_MOVES` places fit in the low byte).
fn packed_key(key: i32, place: usize) -> i64 {
    (i64::from(key) << 8) | (255 - place) as i64
}

// Every place of a list fits in the low byte of a packed key.
const _: () = assert!(MAX_MOVES <= 256);

/// The place in the list of the move `packed` keys.
fn place_of(packed: i64) -> usize {
    255 - (packed & 255) as usize
}

impl PickerLists {
    /// Append the moves `generate` pushes, keyed by `key` when there is one, as a new span.
    fn append(
        &mut self,
        generate: impl FnOnce(&mut dyn FnMut(Move)),
        key: Option<&dyn Fn(Move) -> i32>,
    ) -> Span {
        let start = self.moves.len();
        generate(&mut |mv| self.moves.push(mv));
        for (place, &mv) in self.moves.iter().enumerate().skip(start) {
            self.keys
                .push(packed_key(key.map_or(0, |key| key(mv)), place));
        }
        Span {
            start,
            next: start,
            end: self.moves.len(),
            keyed: key.is_some(),
        }
    }

    /// The next move of `span` in key order, or `None` when every move was taken. The first
    /// `SELECTIONS` picks select; a span taken further is sorted once (an all-node takes
    /// every move, where selection alone would cost the square of their number).
    fn take(&mut self, span: &mut Span) -> Option<Move> {
        if span.next >= span.end {
            return None;
        }
        let i = span.next;
        let keys = &mut self.keys[i..span.end];
        if span.keyed && i - span.start == SELECTIONS {
            keys.sort_unstable_by(|a, b| b.cmp(a));
            span.keyed = false;
        }
        if span.keyed {
            let mut best = 0;
            for (j, &key) in keys.iter().enumerate().skip(1) {
                if key > keys[best] {
                    best = j;
                }
            }
            keys.swap(0, best);
        }
        span.next += 1;
        Some(self.moves[place_of(keys[0])])
    }
}

/// The moves the early stages yielded (the PV and hash moves, two killers, the countermove),
/// each packed in one number: every later move is checked against all five, and comparing
/// five numbers is a few instructions where comparing five `Option<Move>`s field by field
/// was 1-2% of `bench`.
#[derive(Clone, Copy)]
struct EarlyMoves([u16; 5]);

impl EarlyMoves {
    /// No move packs to this (a move's packing is below 2^15).
    const NONE: u16 = u16::MAX;

    fn of(first: [Option<Move>; 2]) -> Self {
        let mut early = EarlyMoves([Self::NONE; 5]);
        for (i, mv) in first.into_iter().enumerate() {
            if let Some(mv) = mv {
                early.set(i, mv);
            }
        }
        early
    }

    fn packed(mv: Move) -> u16 {
        let promotion = mv.promotion.map_or(0, |piece| piece as u16 + 1);
        mv.from as u16 | (mv.to as u16) << 6 | promotion << 12
    }

    fn set(&mut self, i: usize, mv: Move) {
        self.0[i] = Self::packed(mv);
    }

    fn contains(&self, mv: Move) -> bool {
        let packed = Self::packed(mv);
        self.0
            .iter()
            .fold(false, |found, &early| found | (early == packed))
    }
}

/// How many moves of a span are selected before the rest is sorted.
const SELECTIONS: usize = 4;

/// Yields the legal moves of one node, stage by stage, each exactly once. Nothing is generated
/// before it is reached: the PV and hash moves are tried on a legality test alone, the
/// captures are generated when the first capture is asked for and the quiet moves when the
/// first quiet one is, and each list is selected from rather than sorted. The order is the
/// one a picker that generated and sorted everything at once would give (a test holds the
/// two to the same sequence), so the node counts do not depend on it.
pub struct MovePicker<'a> {
    pv_move: Option<Move>,
    hash_move: Option<Move>,
    killers: [Option<Move>; 2],
    killers_on: bool,
    counter: Option<Move>,
    mvv_lva: Option<(mvv_lva::Params, Option<Square>)>,
    scores_quiets: bool,
    shuffle_quiets: Option<u64>,
    see_order: bool,
    /// The moves generated so far.
    lists: &'a mut PickerLists,
    /// The captures in `lists`, once generated.
    captures: Option<Span>,
    /// How many of `lists.losing` were yielded.
    losing_index: usize,
    /// The quiet moves in `lists`, once generated.
    quiets: Option<Span>,
    /// Moves already yielded by the early stages, skipped later.
    early: EarlyMoves,
    killer_index: usize,
    stage: Stage,
}

impl<'a> MovePicker<'a> {
    /// A picker over every legal move of `board`: captures first, then quiet moves, each in
    /// generation order, in `lists`.
    pub fn new(board: &Board, lists: &'a mut PickerLists) -> Self {
        Self::with_ordering(board, &Ordering::default(), lists)
    }

    /// A picker with the ordering heuristics of `ordering`, its moves in `lists` (emptied).
    pub fn with_ordering(board: &Board, ordering: &Ordering, lists: &'a mut PickerLists) -> Self {
        lists.moves.clear();
        lists.keys.clear();
        lists.losing.clear();
        let legal = |mv: Option<Move>| mv.filter(|&m| board.is_legal(m));
        let pv_move = legal(ordering.pv_move);
        let hash_move = legal(ordering.hash_move).filter(|&m| Some(m) != pv_move);
        MovePicker {
            pv_move,
            hash_move,
            killers: ordering.killers.unwrap_or([None; 2]),
            killers_on: ordering.killers.is_some(),
            counter: ordering.counter,
            mvv_lva: ordering.mvv_lva.map(|(params, to)| (*params, to)),
            scores_quiets: ordering.scores_quiets,
            shuffle_quiets: ordering.shuffle_quiets,
            see_order: ordering.see_order,
            lists,
            captures: None,
            losing_index: 0,
            quiets: None,
            early: EarlyMoves::of([pv_move, hash_move]),
            killer_index: 0,
            stage: Stage::Pv,
        }
    }

    /// Number of moves generated so far: after the last move was yielded, every legal move of
    /// the node.
    pub fn generated_count(&self) -> usize {
        self.lists.moves.len()
    }

    /// Number of captures at this node (they are generated, keyed by `keys`, if they were not
    /// yet).
    pub fn capture_count(&mut self, board: &Board, keys: &MoveKeys) -> usize {
        let span = self.generated_captures(board, keys);
        span.end - span.start
    }

    /// The stage of the move most recently returned.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    fn yielded_early(&self, mv: Move) -> bool {
        self.early.contains(mv)
    }

    /// The captures' span, generated (and keyed by MVV/LVA when it is on, then by `keys`'s
    /// capture key) at the first call.
    fn generated_captures(&mut self, board: &Board, keys: &MoveKeys) -> Span {
        if let Some(span) = self.captures {
            return span;
        }
        let key = self.mvv_lva.map(|(params, to)| {
            move |mv: Move| {
                let key = mvv_lva::capture_key(board, mv, to, &params);
                keys.capture.map_or(key, |capture| capture(mv, key))
            }
        });
        let key = key.as_ref().map(|k| k as &dyn Fn(Move) -> i32);
        let span = self
            .lists
            .append(|push| generate_captures_into(board, push), key);
        self.captures = Some(span);
        span
    }

    /// The next capture not yielded by an earlier stage, in capture order.
    fn next_capture(&mut self, board: &Board, keys: &MoveKeys) -> Option<Move> {
        let mut span = self.generated_captures(board, keys);
        let pick =
            std::iter::from_fn(|| self.lists.take(&mut span)).find(|&mv| !self.early.contains(mv));
        self.captures = Some(span);
        pick
    }

    fn capture_source(&self, losing: bool) -> Source {
        Source::Capture {
            sorted: self.mvv_lva.is_some(),
            losing,
        }
    }

    /// `mv` is a legal quiet move of this node not yielded before (a killer or the
    /// countermove, proposed from elsewhere in the tree).
    fn fresh_quiet(&self, board: &Board, mv: Move) -> bool {
        !self.yielded_early(mv)
            && board.is_legal(mv)
            && board
                .piece_on(mv.from)
                .is_some_and(|piece| !capture_targets(board, piece).has(mv.to))
    }

    /// The countermove, when it is a quiet move of this node not yielded before.
    fn next_counter(&mut self, board: &Board) -> Option<(Move, Source)> {
        let mv = self
            .counter
            .take()
            .filter(|&c| self.fresh_quiet(board, c))?;
        self.early.set(4, mv);
        Some((mv, Source::Counter))
    }

    /// The captures ahead of the killers: with `see` ordering every capture that does not
    /// lose material (the losing ones are set aside as they are met), else Ifrit's one
    /// capture (only when killers are on).
    fn lead_capture(&mut self, board: &Board, keys: &MoveKeys) -> Option<(Move, Source)> {
        if self.see_order {
            while let Some(mv) = self.next_capture(board, keys) {
                if !see::losing(board, mv) {
                    return Some((mv, self.capture_source(false)));
                }
                self.lists.losing.push(mv);
            }
            self.stage = Stage::Killers;
            return None;
        }
        self.stage = Stage::Killers;
        if self.killers_on {
            self.next_capture(board, keys)
                .map(|mv| (mv, self.capture_source(false)))
        } else {
            None
        }
    }

    /// The next killer that is a quiet move of this node not yielded before.
    fn next_killer(&mut self, board: &Board) -> Option<(Move, Source)> {
        while self.killers_on && self.killer_index < 2 {
            let killer = self.killers[self.killer_index];
            self.killer_index += 1;
            if let Some(mv) = killer.filter(|&k| self.fresh_quiet(board, k)) {
                self.early.set(2 + self.killer_index - 1, mv);
                return Some((mv, Source::Killer));
            }
        }
        None
    }

    /// The captures after the killers: with `see` ordering the losing ones, else the rest.
    fn later_capture(&mut self, board: &Board, keys: &MoveKeys) -> Option<(Move, Source)> {
        if self.see_order {
            let mv = *self.lists.losing.get(self.losing_index)?;
            self.losing_index += 1;
            return Some((mv, self.capture_source(true)));
        }
        self.next_capture(board, keys)
            .map(|mv| (mv, self.capture_source(false)))
    }

    /// The next quiet move in key order not yielded before.
    fn next_quiet(&mut self, board: &Board, quiet_key: &dyn Fn(Move) -> i32) -> Option<Move> {
        let mut span = self.generated_quiets(board, quiet_key);
        let pick =
            std::iter::from_fn(|| self.lists.take(&mut span)).find(|&mv| !self.early.contains(mv));
        self.quiets = Some(span);
        pick
    }

    /// Generate the quiet moves now and key them with `quiet_key` as the tables stand: the
    /// documents' pickers sort every move before the first is searched, so a move searched
    /// before the quiet moves (the hash move, a capture, a killer) does not reorder them with
    /// what it taught the history tables. Without this call they are keyed when reached.
    pub fn key_quiets_now(&mut self, board: &Board, quiet_key: &dyn Fn(Move) -> i32) {
        self.generated_quiets(board, quiet_key);
    }

    /// The quiet moves' span, generated, shuffled and keyed by `quiet_key` at the first call.
    fn generated_quiets(&mut self, board: &Board, quiet_key: &dyn Fn(Move) -> i32) -> Span {
        if let Some(span) = self.quiets {
            return span;
        }
        let shuffle_seed = self.shuffle_quiets;
        let generate = |push: &mut dyn FnMut(Move)| match shuffle_seed {
            Some(seed) => {
                let mut list = generate_quiets(board);
                shuffle(list.as_mut_slice(), seed);
                list.as_slice().iter().for_each(|&mv| push(mv));
            }
            None => generate_quiets_into(board, push),
        };
        let span = self
            .lists
            .append(generate, self.scores_quiets.then_some(quiet_key));
        self.quiets = Some(span);
        span
    }

    /// The next move and where it came from, or `None` when every move has been yielded;
    /// `keys` scores quiet moves (read only when `scores_quiets`, at the first quiet move) and
    /// captures (at the first capture).
    pub fn next_pick(&mut self, board: &Board, keys: &MoveKeys) -> Option<(Move, Source)> {
        loop {
            match self.stage {
                Stage::Pv => {
                    self.stage = Stage::Hash;
                    if let Some(mv) = self.pv_move {
                        return Some((mv, Source::Pv));
                    }
                }
                Stage::Hash => {
                    self.stage = Stage::LeadCapture;
                    if let Some(mv) = self.hash_move {
                        return Some((mv, Source::Hash));
                    }
                }
                Stage::LeadCapture => {
                    if let Some(pick) = self.lead_capture(board, keys) {
                        return Some(pick);
                    }
                }
                Stage::Killers => {
                    if let Some(pick) = self.next_killer(board) {
                        return Some(pick);
                    }
                    self.stage = Stage::CounterBeforeCaptures;
                }
                Stage::CounterBeforeCaptures => {
                    self.stage = Stage::Captures;
                    if self.see_order
                        && let Some(pick) = self.next_counter(board)
                    {
                        return Some(pick);
                    }
                }
                Stage::Captures => {
                    if let Some(pick) = self.later_capture(board, keys) {
                        return Some(pick);
                    }
                    self.stage = Stage::CounterAfterCaptures;
                }
                Stage::CounterAfterCaptures => {
                    self.stage = Stage::Quiets;
                    if let Some(pick) = self.next_counter(board) {
                        return Some(pick);
                    }
                }
                Stage::Quiets => {
                    if let Some(mv) = self.next_quiet(board, keys.quiet) {
                        return Some((mv, Source::Quiet));
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The next move in the order without quiet-move keys, without its source.
    pub fn next_move(&mut self, board: &Board) -> Option<Move> {
        self.next_pick(board, &MoveKeys::NONE).map(|(mv, _)| mv)
    }
}

#[cfg(test)]
mod tests;
