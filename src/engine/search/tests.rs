use super::*;
use crate::engine::config::{Algorithm, Limits};
use crate::engine::eval::EvalKind;
use crate::engine::notation;
use crate::engine::score::{DRAW, MATE};
use crate::engine::spec;
use cozy_chess::Board;

mod cut_nodes;
mod draws;
mod selective;

fn config(algorithm: Algorithm, depth: u32) -> SearchConfig {
    SearchConfig {
        algorithm,
        limits: Limits::depth(depth),
        ..SearchConfig::default()
    }
}

/// `super::search`: every configuration of these tests holds its network.
fn search(pos: Position, config: SearchConfig, observer: &mut dyn Observer) -> SearchResult {
    super::search(pos, config, observer).expect("the configuration holds its network")
}

fn position(fen: &str) -> Position {
    Position::new(fen.parse().unwrap(), EvalKind::Full)
}

#[test]
fn minimax_horizon_leaves_equal_perft() {
    for depth in 1..=4 {
        let result = search(
            Position::startpos(),
            config(Algorithm::Minimax, depth),
            &mut Silent,
        );
        let last = result.iterations.last().unwrap();
        assert_eq!(
            last.stats.horizon,
            crate::engine::perft::perft(&Board::default(), depth)
        );
        assert_eq!(last.stats.cutoffs, 0);
    }
}

#[test]
fn alphabeta_and_minimax_agree_on_the_score() {
    for fen in [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let ab = search(position(fen), config(Algorithm::Alphabeta, 3), &mut Silent);
        let mm = search(position(fen), config(Algorithm::Minimax, 3), &mut Silent);
        assert_eq!(ab.score, mm.score, "{fen}");
        assert!(ab.stats.nodes() < mm.stats.nodes());
    }
}

#[test]
fn finds_mate_in_one_and_scores_it_by_ply() {
    // Scholar's mate pattern: Qxf7#.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let result = search(position(fen), config(Algorithm::Alphabeta, 3), &mut Silent);
    assert_eq!(
        notation::uci(&fen.parse().unwrap(), result.best_move.unwrap()),
        "h5f7"
    );
    assert_eq!(result.score, MATE - 1);
}

#[test]
fn mated_and_stalemated_roots() {
    let mated = search(
        position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
        config(Algorithm::Alphabeta, 2),
        &mut Silent,
    );
    assert_eq!(mated.best_move, None);
    assert_eq!(mated.score, -MATE);
    let stalemate = search(
        position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
        config(Algorithm::Alphabeta, 2),
        &mut Silent,
    );
    assert_eq!(stalemate.best_move, None);
    assert_eq!(stalemate.score, DRAW);
}

#[test]
fn node_limit_is_exact_and_reproducible() {
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let cfg = SearchConfig {
        limits,
        ..SearchConfig::default()
    };
    let a = search(Position::startpos(), cfg.clone(), &mut Silent);
    let b = search(Position::startpos(), cfg, &mut Silent);
    assert_eq!(a.stats, b.stats);
    assert_eq!(a.stats.nodes(), 20_000);
    assert!(a.best_move.is_some());
}

#[test]
fn stop_flag_ends_an_infinite_search() {
    let stop = Arc::new(AtomicBool::new(false));
    let cfg = SearchConfig {
        limits: Limits {
            infinite: true,
            ..Limits::default()
        },
        ..SearchConfig::default()
    };
    let mut searcher = Searcher::new(Position::startpos(), cfg, stop.clone()).unwrap();
    let handle = std::thread::spawn(move || searcher.run(&mut Silent));
    std::thread::sleep(Duration::from_millis(50));
    stop.store(true, Ordering::Relaxed);
    let result = handle.join().unwrap();
    assert!(result.best_move.is_some());
}

#[test]
fn iterations_are_reported_in_order_with_growing_totals() {
    struct Collect(Vec<(u32, u64)>);
    impl Observer for Collect {
        fn iteration(&mut self, _root: &Board, info: &IterationInfo) {
            self.0.push((info.depth, info.total_nodes));
        }
    }
    let mut collect = Collect(Vec::new());
    let result = search(
        Position::startpos(),
        config(Algorithm::Alphabeta, 4),
        &mut collect,
    );
    assert_eq!(
        collect.0.iter().map(|c| c.0).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert!(collect.0.windows(2).all(|w| w[0].1 < w[1].1));
    assert_eq!(collect.0.last().unwrap().1, result.stats.nodes());
}

fn with_spec(spec: &str, depth: u32) -> SearchConfig {
    SearchConfig {
        limits: Limits::depth(depth),
        ..spec::parse(spec).unwrap()
    }
}

#[test]
fn minimax_with_quiescence_keeps_perft_leaves_and_searches_captures_below() {
    let result = search(Position::startpos(), with_spec("minimax-q", 4), &mut Silent);
    let last = result.iterations.last().unwrap();
    assert_eq!(last.stats.horizon, 197_281);
    assert!(last.stats.quiescence > 0);
    assert_eq!(last.stats.cutoffs, 0);
}

#[test]
fn quiescence_sees_that_a_defended_pawn_is_poisoned() {
    // Qxd5 wins a pawn at depth 1 unless the recapture cxd5 is seen.
    let fen = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
    let greedy = search(position(fen), config(Algorithm::Alphabeta, 1), &mut Silent);
    let board: cozy_chess::Board = fen.parse().unwrap();
    let qxd5: cozy_chess::Move = "d1d5".parse().unwrap();
    assert_eq!(
        greedy.best_move,
        Some(qxd5),
        "without quiescence the capture looks free"
    );
    let careful = search(position(fen), with_spec("quiescence", 1), &mut Silent);
    assert_ne!(careful.best_move, Some(qxd5));
    assert!(careful.stats.quiescence > 0);
    assert!(board.is_legal(careful.best_move.unwrap()));
}

#[test]
fn quiescence_searches_evasions_when_in_check() {
    // After 3.Bb5+ the horizon node (depth 1) is in check: the evasion search resolves it.
    let fen = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
    let result = search(position(fen), with_spec("quiescence", 1), &mut Silent);
    let c = result
        .stats
        .heuristics
        .get(crate::engine::stats::counter!(Quiescence));
    // Tested at the leaves whose stand pat left them something to search (every leaf in
    // check), not at the leaves the stand pat cut.
    assert!(c.tested > 0 && c.tested <= result.stats.horizon);
    assert!(c.fired > 0 && c.fired <= c.tested);
}

#[test]
fn every_preset_searches_the_start_position() {
    for preset in spec::PRESETS {
        let depth = if preset.name.starts_with("minimax") {
            3
        } else {
            5
        };
        let result = search(
            Position::startpos(),
            with_spec(preset.name, depth),
            &mut Silent,
        );
        // The depth reported is the iteration's number, also where a fail high was searched
        // again shallower.
        assert_eq!(result.depth, depth, "{}", preset.name);
        assert!(result.best_move.is_some(), "{}", preset.name);
    }
}

/// A searcher standing one ply below its root, after `mv`, ready for `alphabeta`.
fn searcher_after(fen: &str, spec_text: &str, mv: &str) -> Searcher {
    let config = with_spec(spec_text, 4);
    let mut searcher =
        Searcher::new(position(fen), config, Arc::new(AtomicBool::new(false))).unwrap();
    let mv = cozy_chess::util::parse_uci_move(searcher.pos.board(), mv).unwrap();
    searcher.pos.make(mv);
    searcher
}

#[test]
fn a_node_whose_every_move_was_pruned_stores_no_hash_move() {
    // Black to move with king moves only (no capture, no check): with alpha far above the
    // evaluation, futility's pre-frontier form prunes every move at depth 2.
    let mut searcher = searcher_after("4k3/8/4p3/4P3/8/8/8/3K4 w - - 0 1", "classic", "d1e1");
    let score = searcher.alphabeta(300, 301, 2);
    assert!(score <= 300, "fails low");
    let fired = searcher
        .stats
        .heuristics
        .get(crate::engine::stats::counter!(Futility.pre_frontier))
        .fired;
    assert!(fired > 0, "moves were pruned");
    let entry = searcher
        .state
        .tt
        .probe(searcher.pos.board().hash())
        .expect("the node stored its result");
    assert_eq!(
        entry.best_move(),
        None,
        "a pruned move became the hash move"
    );
}

#[test]
fn each_randomised_heuristic_draws_from_its_own_stream() {
    // GSR's crossover points must not move when mate history also draws (an ablation of
    // mate_history would otherwise change GSR's reductions too).
    let crossovers = |spec_text: &str, interleave: bool| {
        let config = with_spec(spec_text, 4);
        let mut s = Searcher::new(
            Position::startpos(),
            config,
            Arc::new(AtomicBool::new(false)),
        )
        .unwrap();
        (0..50)
            .map(|_| {
                if interleave {
                    s.draw(Id::MateHistory);
                }
                s.crossover()
            })
            .collect::<Vec<_>>()
    };
    let alone = crossovers("classic,gsr", false);
    assert_eq!(alone, crossovers("classic,gsr,mate_history", true));
    assert!(alone.windows(2).any(|w| w[0] != w[1]), "the points vary");
    let other_seed = {
        let mut config = with_spec("classic,gsr", 4);
        config.seed = 1;
        let mut s = Searcher::new(
            Position::startpos(),
            config,
            Arc::new(AtomicBool::new(false)),
        )
        .unwrap();
        (0..50).map(|_| s.crossover()).collect::<Vec<_>>()
    };
    assert_ne!(alone, other_seed, "the seed still matters");
}

#[test]
fn the_main_function_of_main_selective_is_not_answered_by_selective_entries() {
    // The selective search of a node stores its result; the main function's search of the
    // same node, depth and window must search it again, not take that entry as a cut-off.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let mut searcher = searcher_after(fen, "classic,main_selective", "b1c3");
    let selective = searcher.alphabeta(-30, 30, 4);
    let before = searcher.stats.nodes();
    let main = searcher.in_function(false, |s| s.alphabeta(-30, 30, 4));
    let main_nodes = searcher.stats.nodes() - before;
    assert!(
        main_nodes > 100,
        "the main function searched {main_nodes} nodes (selective {selective}, main {main})"
    );
    // And over the bench, the split changes the search and its counter counts.
    let positions = crate::harness::bench::bench_positions();
    let run = |spec_text: &str| {
        let mut total = SearchStats::default();
        for record in positions.iter().take(8) {
            let config = with_spec(spec_text, 5);
            let pos = Position::new(record.board.clone(), config.eval);
            total += search(pos, config, &mut Silent).stats;
        }
        total
    };
    let split = run("classic,main_selective");
    assert_ne!(run("classic").nodes(), split.nodes());
    let c = split
        .heuristics
        .get(crate::engine::stats::counter!(MainSelective));
    assert!(c.tested > 0 && c.fired > 0, "{c:?}");
}

#[test]
fn futility_stays_out_of_signal_verification_searches() {
    // 004: futility is not applied inside "a null-move search (or another search of reduced
    // depth)". A 002 verification search must be the same with futility on or off, while the
    // same search outside a verification is not.
    use crate::engine::heuristics::Side;
    use crate::engine::heuristics::view::NodeView;
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let nodes = |spec_text: &str, verifying: bool| {
        let mut s = searcher_after(fen, spec_text, "b1c3");
        let node = NodeView {
            depth: 5,
            ply: 1,
            alpha: -30,
            beta: 30,
            ..NodeView::default()
        };
        if verifying {
            s.verified(
                crate::engine::stats::counter!(EmaChannel.alpha),
                Side::Alpha,
                &node,
                4,
                &mut None,
            );
        } else {
            s.alphabeta(-30, 30, 3);
        }
        s.stats.nodes()
    };
    assert_ne!(
        nodes("classic", false),
        nodes("classic,-futility", false),
        "futility prunes this search"
    );
    assert_eq!(
        nodes("classic,ema_channel", true),
        nodes("classic,ema_channel,-futility", true),
        "but not when it verifies a signal"
    );
}

#[test]
fn a_leaf_evaluated_from_scratch_scores_as_the_incremental_one() {
    // leaf_eval=scratch changes the cost of a leaf, never its score: same nodes, same result.
    for spec_text in ["minimax", "minimax-q", "ifrit-plain", "classic"] {
        let depth = if spec_text.starts_with("minimax") {
            3
        } else {
            5
        };
        let run = |leaf: &str| {
            let config = with_spec(&format!("{spec_text},leaf_eval={leaf}"), depth);
            let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
            let result = search(position(fen), config, &mut Silent);
            (result.stats.nodes(), result.score, result.best_move)
        };
        assert_eq!(run("incremental"), run("scratch"), "{spec_text}");
    }
}

#[test]
fn shuffled_quiet_order_is_a_seeded_permutation_per_position() {
    let board = Board::default();
    let order = |seed: Option<u64>| {
        let ordering = crate::engine::movepick::Ordering {
            shuffle_quiets: seed,
            ..Default::default()
        };
        let mut lists = crate::engine::movepick::PickerLists::default();
        let mut picker =
            crate::engine::movepick::MovePicker::with_ordering(&board, &ordering, &mut lists);
        std::iter::from_fn(|| picker.next_move(&board)).collect::<Vec<_>>()
    };
    let generator = order(None);
    let shuffled = order(Some(7));
    assert_eq!(shuffled, order(Some(7)), "the same seed, the same order");
    assert_ne!(shuffled, generator);
    assert_ne!(shuffled, order(Some(8)));
    let (mut a, mut b) = (generator.clone(), shuffled.clone());
    a.sort_by_key(|m| m.to_string());
    b.sort_by_key(|m| m.to_string());
    assert_eq!(a, b, "a permutation of the same moves");

    // In a search: the seed decides the node count, reproducibly.
    let nodes = |seed: u64| {
        let mut config = with_spec("ifrit-plain,quiet_order=shuffled", 5);
        config.seed = seed;
        search(Position::startpos(), config, &mut Silent)
            .stats
            .nodes()
    };
    assert_eq!(nodes(1), nodes(1));
    assert_ne!(nodes(1), nodes(2));
}

/// The NNUE evaluation searches deterministically: the same nodes, score and move twice, and a
/// different tree from the hand-written evaluation's.
#[test]
fn the_nnue_evaluation_searches_deterministically() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let run = |eval: EvalKind| {
        let config = SearchConfig {
            eval,
            ..with_spec("modern", 7)
        };
        let result = search(
            Position::new(fen.parse().unwrap(), eval),
            config,
            &mut Silent,
        );
        (result.stats.nodes(), result.score, result.best_move)
    };
    let nnue = run(EvalKind::Nnue);
    assert_eq!(nnue, run(EvalKind::Nnue));
    assert_ne!(nnue.0, run(EvalKind::Full).0);
}

/// Time management: a settled best move asks for less of the soft budget, a new one or a
/// falling score for more.
#[test]
fn a_settled_search_spends_less_time() {
    assert!(soft_scale(0, 0) > soft_scale(1, 0));
    assert!(soft_scale(1, 0) > soft_scale(4, 0));
    assert_eq!(soft_scale(9, 0), soft_scale(4, 0));
    assert!(soft_scale(2, 60) > soft_scale(2, 30));
    assert!(soft_scale(2, 30) > soft_scale(2, 0));
    assert_eq!(
        soft_scale(2, -100),
        soft_scale(2, 0),
        "a rising score asks for nothing more"
    );
}

#[test]
fn the_nodes_scale_is_ethereals_factor() {
    assert_eq!(nodes_scale(1.0), 0.5, "every node on the best move: half");
    assert!((nodes_scale(0.5) - 1.4).abs() < 1e-12);
    assert!(
        (nodes_scale(0.0) - 2.4).abs() < 1e-12,
        "none on it: the most"
    );
    assert_eq!(nodes_scale(0.99), 0.5, "never below half");
}

#[test]
fn the_root_counts_where_its_nodes_went() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let config = with_spec("modern,tt.pv_cutoffs=false", 8);
    let mut searcher =
        Searcher::new(position(fen), config, Arc::new(AtomicBool::new(false))).unwrap();
    let result = searcher.run(&mut Silent);
    let best = result.best_move.unwrap();
    let board = searcher.pos.board().clone();
    let mut moves = Vec::new();
    board.generate_moves(|list| {
        moves.extend(list);
        false
    });
    let shares: Vec<f64> = moves.iter().map(|&mv| searcher.root.share(mv)).collect();
    let total: f64 = shares.iter().sum();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "the shares cover the root's nodes: {total}"
    );
    assert!(searcher.root.share(best) > 0.0);
    searcher.begin(None);
    assert_eq!(searcher.root.share(best), 0.0, "a new search counts afresh");
}

#[test]
fn quiet_keys_when_reached_search_another_tree_reproducibly() {
    // modern keys them when reached, `entry` is the documents'; they part here from depth 9.
    let nodes = |spec: &str| nodes_of(ITALIAN, spec, 9);
    let entry = nodes("modern,quiet_keys=entry");
    let reached = nodes("modern,quiet_keys=reached");
    assert_eq!(reached, nodes("modern"), "modern keys them when reached");
    assert_ne!(
        reached, entry,
        "the keys see what the earlier moves taught the tables"
    );
    assert_eq!(reached, nodes("modern,quiet_keys=reached"));
    let plain = |spec: &str| nodes_of(ITALIAN, spec, 7); // nothing to sort: the same tree
    assert_eq!(plain("plain,quiet_keys=reached"), plain("plain"));
}

/// A quiet opening position (the Italian game after 4.O-O is possible).
const ITALIAN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

/// The nodes of one search of `fen` to `depth` under `spec`.
fn nodes_of(fen: &str, spec: &str, depth: u32) -> u64 {
    search(position(fen), with_spec(spec, depth), &mut Silent)
        .stats
        .nodes()
}

/// `run --width`: the tally changes nothing the search does, and its counts add up to the
/// search's own counters (every gate decision at a node, every cut-off, every LMR reduction).
#[test]
fn the_width_tally_changes_nothing_and_adds_up_to_the_counters() {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8";
    let config = with_spec("modern", 9);
    let plain = search(position(fen), config.clone(), &mut Silent);
    let with = Instruments {
        audit: None,
        width: true,
    };
    let result = search_instrumented(position(fen), config.clone(), with, &mut Silent).unwrap();
    assert_eq!(result.stats, plain.stats);
    assert_eq!(result.best_move, plain.best_move);
    let width = result.width.expect("asked for");
    let sum = |v: &Vec<u64>| v.iter().sum::<u64>();
    assert_eq!(sum(&width.cutoffs), result.stats.cutoffs);
    assert_eq!(
        sum(&width.first_move_cutoffs),
        result.stats.first_move_cutoffs
    );
    assert!(sum(&width.nodes) <= result.stats.interior);
    assert!(sum(&width.nodes) > result.stats.interior / 2);
    let counts = |key: &str| {
        result
            .stats
            .heuristics
            .get(crate::engine::stats::Counter::from_key(key).unwrap())
    };
    for key in [
        "late_move_pruning",
        "null_move",
        "reverse_futility",
        "history_pruning",
    ] {
        let by_depth = &width.decisions[key];
        assert_eq!(sum(&by_depth.tested), counts(key).tested, "{key}");
        assert_eq!(sum(&by_depth.fired), counts(key).fired, "{key}");
        assert!(counts(key).fired > 0, "{key} acted in this search");
    }
    let all = |rows: &Vec<Vec<u64>>| rows.iter().map(sum).sum::<u64>();
    assert_eq!(all(&width.reduced), counts("lmr").fired);
    assert_eq!(all(&width.researched), counts("lmr").overruled);
    assert_eq!(all(&width.by_move), sum(&width.searched));
    assert_eq!(
        sum(&width.searched) - sum(&width.full_depth),
        all(&width.reduced)
    );
    assert!(all(&width.reduction_plies) > all(&width.reduced));
    assert_eq!(sum(&width.tt_cutoffs), counts("tt.cutoff").fired);
}

/// With `aspiration.fail_high_reduction` an iteration whose window failed high finishes a ply
/// or more shallower: its `searched` depth says so, while its reported depth stays the
/// iteration's number, as Ethereal 12 and Stockfish report theirs (a depth compared with an
/// engine's UCI depth must count the same thing). On these tactical positions (WAC.002, .003
/// and .006, shots that fail the window high) some iteration searched less than its number,
/// and none more.
#[test]
fn a_fail_high_searched_shallower_reports_the_iteration_and_the_depth_searched() {
    let mut shallower = 0;
    for fen in [
        "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
        "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
        "7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1",
    ] {
        let mut config = config(Algorithm::Alphabeta, 14);
        spec::apply(&mut config, "modern,aspiration.fail_high_reduction=true").unwrap();
        let result = search(position(fen), config, &mut Silent);
        for (index, info) in result.iterations.iter().enumerate() {
            let number = index as u32 + 1;
            assert_eq!(info.depth, number, "{fen}");
            assert!(
                info.searched <= number,
                "{fen}: iteration {number} searched {}",
                info.searched
            );
            shallower += usize::from(info.searched < number);
        }
        assert_eq!(result.depth, result.iterations.len() as u32, "{fen}");
    }
    assert!(shallower > 0, "no fail high was searched again shallower");
}
