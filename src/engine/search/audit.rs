//! The pruning audit's searches (`engine::audit` says what is measured and how a decision is
//! judged).
//!
//! An audit search runs at the node that decided, in the middle of the main search, and must
//! leave no trace in it: the counters, the PV table, the frames, the random streams and the
//! ordering tables are saved before and put back after (the 1.2 MB continuation history keeps a
//! journal of the cells it changes instead), the transposition table is read but written only
//! in a table of the audits' own, the node budget ignores audit nodes, and the audit's time is
//! taken off the clock. So `--audit` never changes the main search's nodes, scores or moves
//! (a test checks it), and with depth or node limits the audits themselves are reproducible:
//! which decisions are audited is drawn from a stream of their own, seeded by the search seed.
//! Audit searches audit nothing themselves.

use std::time::Instant;

use cozy_chess::Move;
use rand_core::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::line::Frame;
use super::tables::OrderingSnapshot;
use super::{PvTable, Searcher};
use crate::engine::audit::{Auditor, Suppressed, wrong_by};
use crate::engine::heuristics::view::{MoveView, NodeView};
use crate::engine::heuristics::{COUNT, Id};
use crate::engine::score::{MAX_PLY, Score};
use crate::engine::stats::{Counter, SearchStats};
use crate::engine::tt::{Bound, Entry};

/// What an audit search could change in the main search, saved before it.
struct Snapshot {
    stats: SearchStats,
    pv: PvTable,
    frames: Box<[Frame; MAX_PLY + 1]>,
    streams: [Xoshiro256PlusPlus; COUNT],
    ordering: OrderingSnapshot,
}

impl Searcher {
    /// Audit each pruning or reduction decision with probability `rate` (0 < rate <= 1).
    pub fn enable_audit(&mut self, rate: f64) {
        let with_table = self.on(Id::Tt);
        self.audit.auditor = Some(Box::new(Auditor::new(rate, with_table)));
    }

    /// Should the decision just taken be audited? Never inside an audit search; otherwise one
    /// draw from the audit's stream. Inlined so that a search without an audit (every game,
    /// every bench) pays one test at each decision, not a call: the gate's offer was 1.4% of
    /// `bench`'s time in a profile with the audit off; inlined, the same nodes ran ×1.009
    /// (`reports/nps/default-0a3a6be/`).
    #[inline]
    pub(super) fn audits(&mut self) -> bool {
        if self.audit.auditor.is_none() || self.audit.searching {
            return false;
        }
        self.audit_draw()
    }

    #[cold]
    #[inline(never)]
    fn audit_draw(&mut self) -> bool {
        match &mut self.audit.auditor {
            Some(audit) => {
                let draw = audit.rng.next_u64() as f64 / (u64::MAX as f64 + 1.0);
                draw < audit.rate
            }
            None => false,
        }
    }

    /// The decision `counter` is left out at the current node (the node an audit searches
    /// again without it).
    #[inline]
    pub(super) fn suppresses(&self, counter: Counter) -> bool {
        self.audit
            .suppressed
            .as_ref()
            .is_some_and(|(left_out, ply)| *ply == self.pos.ply() && left_out.contains(&counter))
    }

    /// The transposition table entry for `key`: in an audit search the deeper of the audit's
    /// own entry and the main table's.
    #[inline]
    pub(super) fn tt_probe(&self, key: u64) -> Option<Entry> {
        let main = self.state.tt.probe(key);
        match (&self.audit.auditor, self.audit.searching) {
            (Some(audit), true) => match (audit.table.probe(key), main) {
                (Some(own), Some(main)) if main.depth() > own.depth() => Some(main),
                (Some(own), _) => Some(own),
                (None, main) => main,
            },
            _ => main,
        }
    }

    /// Store a result: an audit search stores into its own table.
    #[inline]
    pub(super) fn tt_store(
        &mut self,
        key: u64,
        depth: i32,
        score: Score,
        bound: Bound,
        best: Option<Move>,
        ply: usize,
    ) {
        match (&mut self.audit.auditor, self.audit.searching) {
            (Some(audit), true) => audit.table.store(key, depth, score, bound, best, ply),
            _ => self.state.tt.store(key, depth, score, bound, best, ply),
        }
    }

    fn snapshot(&mut self) -> Snapshot {
        Snapshot {
            stats: self.stats,
            pv: self.pv.clone(),
            frames: self.line.frames.clone(),
            streams: self.streams.clone(),
            ordering: self.state.ordering.snapshot(),
        }
    }

    fn restore(&mut self, saved: Snapshot) {
        self.stats = saved.stats;
        self.pv = saved.pv;
        self.line.frames = saved.frames;
        self.streams = saved.streams;
        self.state.ordering.restore(saved.ordering);
    }

    /// Run `search` as an audit search and put everything back: its score and nodes, or
    /// `None` when it was stopped (a `stop` or the clock: the main search then stops too).
    fn audit_search(&mut self, search: impl FnOnce(&mut Self) -> Score) -> Option<(Score, u64)> {
        assert!(!self.audit.searching, "audit searches do not nest");
        let began = Instant::now();
        let saved = self.snapshot();
        let nodes_before = self.stats.nodes();
        self.audit.searching = true;
        let score = search(self);
        self.audit.searching = false;
        let nodes = self.stats.nodes() - nodes_before;
        self.restore(saved);
        let spent = began.elapsed();
        // The clock runs for the main search only.
        self.clock.start += spent;
        if let Some(auditor) = &mut self.audit.auditor {
            auditor.time += spent;
        }
        (!self.aborted()).then_some((score, nodes))
    }

    /// Count an audited decision under each of `counters`.
    fn judge(
        &mut self,
        counters: &[Counter],
        depth: i32,
        claim: Score,
        found: Option<(Score, u64)>,
        window: (Score, Score),
    ) {
        let (Some((full, nodes)), Some(audit)) = (found, &mut self.audit.auditor) else {
            return;
        };
        let wrong = wrong_by(claim, full, window.0, window.1);
        for &counter in counters {
            audit.tally.record(counter, depth, wrong, nodes);
        }
    }

    /// A node was cut by `counter` with `claim`: search it again without that decision, at
    /// the depth it was entered with.
    pub(super) fn audit_node(
        &mut self,
        counter: Counter,
        node: &NodeView,
        entry_depth: i32,
        claim: Score,
    ) {
        let window = (node.alpha, node.beta);
        self.audit_node_again(counter, window, (entry_depth, node.depth), claim);
    }

    /// The current node returned `claim` in `window` after `counter` cut or reduced it: search
    /// it again at `entry_depth` without that decision.
    pub(super) fn audit_node_reduction(
        &mut self,
        counter: Counter,
        window: (Score, Score),
        entry_depth: i32,
        claim: Score,
    ) {
        self.audit_node_again(counter, window, (entry_depth, entry_depth), claim);
    }

    /// Search the current node again at `entry_depth` without `counter`'s decision, and judge
    /// it at remaining depth `depth`.
    fn audit_node_again(
        &mut self,
        counter: Counter,
        window: (Score, Score),
        (entry_depth, depth): (i32, i32),
        claim: Score,
    ) {
        let ply = self.pos.ply();
        let mut left_out: Suppressed = counter.mirrors().collect();
        left_out.push(counter);
        let found = self.audit_search(|s| {
            s.audit.suppressed = Some((left_out, ply));
            let score = s.alphabeta(window.0, window.1, entry_depth);
            s.audit.suppressed = None;
            score
        });
        self.judge(&[counter], depth, claim, found, window);
    }

    /// `mv` (`before`: its view unmade) was skipped before it was made: search it as the move
    /// loop would have, extension included, with no reduction.
    pub(super) fn audit_unmade_move(
        &mut self,
        counter: Counter,
        node: &NodeView,
        mv: Move,
        before: MoveView,
    ) {
        let found = self.audit_search(|s| {
            let (_, extension) = s.enter_move(mv, before);
            let new_depth = node.depth - 1 + extension;
            let score = -s.alphabeta(-node.beta, -node.alpha, new_depth);
            s.pos.unmake();
            score
        });
        let window = (node.alpha, node.beta);
        self.judge(&[counter], node.depth, node.alpha, found, window);
    }

    /// The move just made was skipped, cut on, or searched reduced with `claim` by
    /// `counters`: search it at `new_depth` in the node's window, with the tests that mirror
    /// the decision (registry `mirrors`: futility's pre-frontier skip and the child's frontier
    /// cut) left out of the child, or the audit would only repeat the decision it judges.
    /// When the child is a horizon node whose stand pat repeats the test, nothing is searched:
    /// the audit is recorded as not measurable.
    pub(super) fn audit_made_move(
        &mut self,
        counters: &[Counter],
        node: &NodeView,
        new_depth: i32,
        claim: Score,
    ) {
        let first = counters.first().copied();
        if new_depth <= 0 && first.is_some_and(Counter::mirrored_by_stand_pat) {
            if let Some(audit) = &mut self.audit.auditor {
                for &counter in counters {
                    audit.tally.record_mirrored(counter, node.depth);
                }
            }
            return;
        }
        let left_out: Suppressed = first.into_iter().flat_map(Counter::mirrors).collect();
        let found = self.audit_search(|s| {
            s.audit.suppressed = Some((left_out, node.ply + 1));
            let score = -s.alphabeta(-node.beta, -node.alpha, new_depth);
            s.audit.suppressed = None;
            score
        });
        let window = (node.alpha, node.beta);
        self.judge(counters, node.depth, claim, found, window);
    }

    /// A capture was left out of the quiescence search (`mv`: not made yet; `None`: the move
    /// is on the board): search it there.
    pub(super) fn audit_capture(
        &mut self,
        counter: Counter,
        window: (Score, Score),
        qdepth: i32,
        mv: Option<Move>,
    ) {
        let found = self.audit_search(|s| {
            if let Some(mv) = mv {
                s.pos.make(mv);
            }
            let score = -s.forced_variant(-window.1, -window.0, qdepth + 1);
            if mv.is_some() {
                s.pos.unmake();
            }
            score
        });
        self.judge(&[counter], 0, window.0, found, window);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::engine::audit::{AuditRow, AuditTally};
    use crate::engine::config::{Limits, SearchConfig};
    use crate::engine::eval::EvalKind;
    use crate::engine::position::Position;
    use crate::engine::search::{SearchResult, Silent};
    use crate::engine::spec;
    use crate::engine::stats::counter;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1";

    fn searched(spec_text: &str, fen: &str, depth: u32, audit: Option<f64>) -> SearchResult {
        let config = SearchConfig {
            limits: Limits::depth(depth),
            ..spec::configure(spec_text, None, 1).unwrap()
        };
        searched_with(config, fen, audit)
    }

    fn searched_with(config: SearchConfig, fen: &str, audit: Option<f64>) -> SearchResult {
        let board = crate::engine::fen::parse_position(fen).unwrap();
        let pos = Position::new(board, EvalKind::Full);
        let mut searcher = Searcher::new(pos, config, Arc::new(AtomicBool::new(false))).unwrap();
        if let Some(rate) = audit {
            searcher.enable_audit(rate);
        }
        searcher.run(&mut Silent)
    }

    fn same_search(a: &SearchResult, b: &SearchResult) {
        assert_eq!(a.stats, b.stats);
        assert_eq!(a.best_move, b.best_move);
        assert_eq!(a.score, b.score);
        let lines = |r: &SearchResult| -> Vec<_> {
            r.iterations
                .iter()
                .map(|i| (i.stats, i.score, i.pv.clone()))
                .collect()
        };
        assert_eq!(lines(a), lines(b));
    }

    #[test]
    fn an_audit_never_changes_the_main_search() {
        for spec_text in ["all", "modern", "classic,+gsr,+momentum"] {
            let plain = searched(spec_text, KIWIPETE, 6, None);
            let audited = searched(spec_text, KIWIPETE, 6, Some(1.0));
            same_search(&plain, &audited);
            let tally = audited.audit.expect("an audited search has an audit");
            assert!(!tally.is_empty(), "{spec_text}: decisions were audited");
            assert!(tally.nodes() > 0);
            assert!(plain.audit.is_none());
        }
    }

    #[test]
    fn an_iir_node_cut_and_audited_keeps_its_iir_audit_for_the_main_search() {
        // Here `modern` reduces nodes by IIR that null move or reverse futility then cut: the
        // cut's audit re-runs the node, and must leave the pending IIR decision to the main
        // search (an audit inside an audit once wrote to the main table and changed it).
        let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";
        let plain = searched("modern", fen, 9, None);
        let audited = searched("modern", fen, 9, Some(1.0));
        same_search(&plain, &audited);
        let iir = audited.audit.unwrap().by_decision()[&counter!(Iir)];
        assert_eq!(iir.audited, plain.stats.heuristics.get(counter!(Iir)).fired);
    }

    #[test]
    fn a_sampled_audit_is_reproducible_and_a_subset() {
        let first = searched("modern", KIWIPETE, 6, Some(0.1)).audit.unwrap();
        let again = searched("modern", KIWIPETE, 6, Some(0.1)).audit.unwrap();
        assert_eq!(first, again);
        let whole = searched("modern", KIWIPETE, 6, Some(1.0)).audit.unwrap();
        let (sampled, all): (u64, u64) = (
            first.by_decision().values().map(|c| c.audited).sum(),
            whole.by_decision().values().map(|c| c.audited).sum(),
        );
        assert!(sampled > 0 && sampled * 4 < all, "{sampled} of {all}");
    }

    #[test]
    fn audits_cover_every_kind_of_decision() {
        let tally = searched("all", KIWIPETE, 6, Some(1.0)).audit.unwrap();
        let keys: Vec<String> = tally.by_decision().keys().map(|c| c.key()).collect();
        for expected in [
            "null_move",
            "futility.pre_frontier",
            "futility_move_count",
            "razoring.move",
            "static_lr",
            "gsr",
        ] {
            assert!(keys.iter().any(|k| k == expected), "{expected} in {keys:?}");
        }
        let spec_text = "modern,multi_cut,singular_extension.min_depth=4";
        let tally = searched(spec_text, KIWIPETE, 6, Some(1.0)).audit.unwrap();
        let keys: Vec<String> = tally.by_decision().keys().map(|c| c.key()).collect();
        for expected in [
            "lmr",
            "reverse_futility",
            "late_move_pruning",
            "quiet_futility",
            "multi_cut",
            "see.quiescence",
            "iir",
        ] {
            assert!(keys.iter().any(|k| k == expected), "{expected} in {keys:?}");
        }
    }

    #[test]
    fn an_audit_leaves_out_the_tests_that_mirror_its_decision() {
        // Razoring's move form skips a move whose evaluation plus a piece stays at or below
        // alpha: in the child, reverse futility, frontier futility and razoring's node form
        // would cut at once on the same evaluation (each audit one node, never wrong), and at
        // remaining depth 1 the child's stand pat does, which no audit can leave out.
        assert!(
            counter!(Razoring.move)
                .mirrors()
                .any(|c| c == counter!(ReverseFutility))
        );
        assert!(counter!(Futility.pre_frontier).mirrored_by_stand_pat());
        assert!(!counter!(Lmr).mirrored_by_stand_pat());
        let mut tally = AuditTally::default();
        for fen in [KIWIPETE, "startpos", "8/5pk1/6p1/3P4/5P2/6PK/8/8 w - - 0 1"] {
            tally.merge(
                &searched("modern,+razoring,+futility", fen, 7, Some(1.0))
                    .audit
                    .unwrap(),
            );
        }
        let rows = tally.rows();
        for key in ["razoring.move", "futility.pre_frontier"] {
            let strata: Vec<&AuditRow> = rows.iter().filter(|r| r.decision == key).collect();
            assert!(!strata.is_empty(), "{key} audited");
            for row in strata {
                let cell = row.cell;
                if row.depth == 1 {
                    assert_eq!(cell.mirrored, cell.audited, "{key} at depth 1: {cell:?}");
                    assert_eq!((cell.wrong, cell.nodes), (0, 0));
                } else {
                    assert_eq!(cell.mirrored, 0, "{key} at depth {}", row.depth);
                    // With reverse futility left in the child, these average 3.8-6.7 nodes an
                    // audit at depths 2-4 (the child cut at once or nearly); without, 8.8-20.
                    assert!(
                        cell.nodes > 7 * cell.audited,
                        "{key} at depth {}: the child searched, not cut at once: {cell:?}",
                        row.depth
                    );
                }
            }
        }
    }

    #[test]
    fn a_deliberately_wrong_pruning_is_caught_more_often() {
        // A negative margin cuts nodes whose evaluation is below beta: a SPEC refuses it (the
        // parameter's range starts at 0), so the configuration is set by hand. The frontier
        // form alone: the pre-frontier form is its mirror one ply up (a move it skips is a
        // child the frontier form would cut), so with both on the frontier form rarely acts.
        // Quiet positions: in a tactical one (Kiwipete) the side to move nearly always has a
        // capture worth more than three pawns, and even the reckless cut is right.
        let rate = |margin: i32| {
            let mut config = SearchConfig {
                limits: Limits::depth(6),
                ..spec::configure(
                    "quiescence,tt,futility,futility.pre_frontier=false",
                    None,
                    1,
                )
                .unwrap()
            };
            config.heuristics.futility.margin = margin;
            let mut total = AuditTally::default();
            for fen in ["startpos", "8/5pk1/6p1/3P4/5P2/6PK/8/8 w - - 0 1"] {
                total.merge(&searched_with(config.clone(), fen, Some(1.0)).audit.unwrap());
            }
            let cell = total.by_decision()[&counter!(Futility.frontier)];
            assert!(cell.audited > 1000, "margin {margin}: {cell:?}");
            cell.error_rate().unwrap()
        };
        let sound = rate(50);
        let reckless = rate(-300);
        assert!(sound < 0.01, "the default margin errs rarely: {sound}");
        assert!(
            reckless > 0.1,
            "three pawns of optimism are caught: {reckless}"
        );
    }
}
