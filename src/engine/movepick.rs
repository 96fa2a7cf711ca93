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
use super::movegen::{MAX_MOVES, MoveList, generate_captures_first};
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
    /// The key quiet moves are sorted by, highest first (history and mate history when they
    /// are on); without one they keep their base order.
    pub quiet_key: Option<&'a dyn Fn(Move) -> i32>,
    /// The base order of quiet moves: generation order (`None`), or a permutation drawn from
    /// this seed (`quiet_order=shuffled`).
    pub shuffle_quiets: Option<u64>,
    /// The refutation of the previous move (`countermove` on).
    pub counter: Option<Move>,
    /// Captures that lose material (static exchange) go after the killers (`see.order`).
    pub see_order: bool,
}

/// Yields the legal moves of one node, stage by stage, each exactly once.
pub struct MovePicker {
    list: MoveList,
    captures: usize,
    sorted_captures: bool,
    pv_move: Option<Move>,
    hash_move: Option<Move>,
    killers: [Option<Move>; 2],
    killers_on: bool,
    counter: Option<Move>,
    /// With `see` ordering, the captures before this index do not lose material and lead
    /// (ahead of the killers); the rest are `losing`.
    lead: usize,
    see_order: bool,
    /// Moves already yielded by the early stages, skipped later.
    early: [Option<Move>; 5],
    index: usize,
    killer_index: usize,
    stage: Stage,
}

impl MovePicker {
    /// A picker over every legal move of `board`: captures first, then quiet moves, each in
    /// generation order.
    pub fn new(board: &Board) -> Self {
        Self::with_ordering(board, &Ordering::default())
    }

    /// A picker with the ordering heuristics of `ordering`.
    pub fn with_ordering(board: &Board, ordering: &Ordering) -> Self {
        let (mut list, captures) = generate_captures_first(board);
        let mut sorted_captures = false;
        if let Some((params, last_moved_to)) = ordering.mvv_lva {
            // Stable: equal keys keep generation order.
            list.as_mut_slice()[..captures].sort_by_key(|&mv| {
                std::cmp::Reverse(mvv_lva::capture_key(board, mv, last_moved_to, params))
            });
            sorted_captures = true;
        }
        if let Some(seed) = ordering.shuffle_quiets {
            shuffle(&mut list.as_mut_slice()[captures..], seed);
        }
        if let Some(key) = ordering.quiet_key {
            // Each key is computed once, then the pairs are sorted; stable, so equal keys keep
            // generation order.
            let mut keyed: ArrayVec<(i32, Move), MAX_MOVES> = list.as_slice()[captures..]
                .iter()
                .map(|&mv| (key(mv), mv))
                .collect();
            keyed.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
            for (slot, (_, mv)) in list.as_mut_slice()[captures..].iter_mut().zip(keyed) {
                *slot = mv;
            }
        }
        // Losing captures after the others, each part in its order (a stable partition).
        let lead = if ordering.see_order {
            let (mut good, mut bad): (MoveList, MoveList) = Default::default();
            for &mv in &list.as_slice()[..captures] {
                if see::losing(board, mv) {
                    bad.push(mv);
                } else {
                    good.push(mv);
                }
            }
            let good_count = good.len();
            for (slot, mv) in list.as_mut_slice()[..captures]
                .iter_mut()
                .zip(good.as_slice().iter().chain(bad.as_slice()))
            {
                *slot = *mv;
            }
            good_count
        } else {
            0
        };
        let in_list = |mv: Option<Move>| mv.filter(|m| list.as_slice().contains(m));
        let pv_move = in_list(ordering.pv_move);
        let hash_move = in_list(ordering.hash_move).filter(|&m| Some(m) != pv_move);
        let killers = ordering.killers.unwrap_or([None; 2]);
        MovePicker {
            list,
            captures,
            sorted_captures,
            pv_move,
            hash_move,
            killers,
            killers_on: ordering.killers.is_some(),
            counter: ordering.counter,
            lead,
            see_order: ordering.see_order,
            early: [pv_move, hash_move, None, None, None],
            index: 0,
            killer_index: 0,
            stage: Stage::Pv,
        }
    }

    /// Number of legal moves at this node.
    pub fn legal_count(&self) -> usize {
        self.list.len()
    }

    /// Number of captures at this node.
    pub fn capture_count(&self) -> usize {
        self.captures
    }

    /// The stage of the move most recently returned.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    fn yielded_early(&self, mv: Move) -> bool {
        self.early.contains(&Some(mv))
    }

    /// The next capture before index `end` not yielded by an earlier stage.
    fn next_capture(&mut self, end: usize) -> Option<(Move, Source)> {
        while self.index < end {
            let i = self.index;
            let mv = self.list.as_slice()[i];
            self.index += 1;
            if !self.yielded_early(mv) {
                return Some((
                    mv,
                    Source::Capture {
                        sorted: self.sorted_captures,
                        losing: self.see_order && i >= self.lead,
                    },
                ));
            }
        }
        None
    }

    /// The countermove, when it is a quiet move of this node not yielded before.
    fn next_counter(&mut self) -> Option<(Move, Source)> {
        let quiets = &self.list.as_slice()[self.captures..];
        let mv = self
            .counter
            .take()
            .filter(|&c| quiets.contains(&c) && !self.yielded_early(c))?;
        self.early[4] = Some(mv);
        Some((mv, Source::Counter))
    }

    /// The captures ahead of the killers: with `see` ordering every capture that does not
    /// lose material, else Ifrit's one capture (only when killers are on).
    fn lead_capture(&mut self) -> Option<(Move, Source)> {
        if self.see_order {
            let pick = self.next_capture(self.lead);
            if pick.is_none() {
                self.stage = Stage::Killers;
            }
            return pick;
        }
        self.stage = Stage::Killers;
        if self.killers_on {
            self.next_capture(self.captures)
        } else {
            None
        }
    }

    /// The next killer that is a quiet move of this node not yielded before.
    fn next_killer(&mut self) -> Option<(Move, Source)> {
        while self.killers_on && self.killer_index < 2 {
            let killer = self.killers[self.killer_index];
            self.killer_index += 1;
            let quiets = &self.list.as_slice()[self.captures..];
            if let Some(mv) = killer.filter(|&k| quiets.contains(&k) && !self.yielded_early(k)) {
                self.early[2 + self.killer_index - 1] = Some(mv);
                return Some((mv, Source::Killer));
            }
        }
        None
    }

    /// The next quiet move in the list's order not yielded before.
    fn next_quiet(&mut self) -> Option<(Move, Source)> {
        while self.index < self.list.len() {
            let i = self.index;
            self.index += 1;
            let mv = self.list.as_slice()[i];
            if !self.yielded_early(mv) {
                return Some((mv, Source::Quiet));
            }
        }
        None
    }

    /// The next move and where it came from, or `None` when every move has been yielded.
    pub fn next_pick(&mut self) -> Option<(Move, Source)> {
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
                    if let Some(pick) = self.lead_capture() {
                        return Some(pick);
                    }
                }
                Stage::Killers => {
                    if let Some(pick) = self.next_killer() {
                        return Some(pick);
                    }
                    self.stage = Stage::CounterBeforeCaptures;
                }
                Stage::CounterBeforeCaptures => {
                    self.stage = Stage::Captures;
                    if self.see_order
                        && let Some(pick) = self.next_counter()
                    {
                        return Some(pick);
                    }
                }
                Stage::Captures => {
                    if let Some(pick) = self.next_capture(self.captures) {
                        return Some(pick);
                    }
                    self.stage = Stage::CounterAfterCaptures;
                }
                Stage::CounterAfterCaptures => {
                    self.stage = Stage::Quiets;
                    if let Some(pick) = self.next_counter() {
                        return Some(pick);
                    }
                }
                Stage::Quiets => {
                    if let Some(pick) = self.next_quiet() {
                        return Some(pick);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The next move, without its source.
    pub fn next_move(&mut self) -> Option<Move> {
        self.next_pick().map(|(mv, _)| mv)
    }
}

#[cfg(test)]
mod tests;
