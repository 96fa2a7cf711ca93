//! The heuristics as a whole: the golden table of bench signatures, every pruning and ordering
//! heuristic changing the bench count (ordering ones reducing it), tactical soundness of the
//! strong presets, and seeded reproducibility.
//!
//! Regenerate the golden table on purpose only: `UPDATE_GOLDEN=1 cargo test --release --test
//! heuristics golden`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use cozy_chess::util::parse_san_move;

use searchlab::engine::config::{Limits, SearchConfig};
use searchlab::engine::heuristics::{Id, Kind, REGISTRY};
use searchlab::engine::position::Position;
use searchlab::engine::search::{Silent, search};
use searchlab::engine::spec::PRESETS;
use searchlab::engine::spec::configure;
use searchlab::harness::{bench, epd};

/// Depth of the golden table (the bench's default depth is measured by `tests/bench.rs`).
const GOLDEN_DEPTH: u32 = 4;
const GOLDEN_FILE: &str = "tests/golden/bench_signatures.json";

/// Bench node counts of `(spec, depth, seed)` jobs, two at a time.
fn bench_counts(jobs: &[(String, u32, u64)]) -> Vec<u64> {
    let positions = bench::bench_positions();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![0; jobs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((spec, depth, seed)) = jobs.get(i) else {
                        break;
                    };
                    let config =
                        configure(spec, None, *seed).unwrap_or_else(|e| panic!("{spec}: {e}"));
                    let nodes = bench::run(&positions, *depth, config, None, |_| {})
                        .unwrap()
                        .nodes();
                    results.lock().unwrap()[i] = nodes;
                }
            });
        }
    });
    results.into_inner().unwrap()
}

/// Every preset, and each heuristic over `plain` and `ifrit-plain`, with the heuristics it
/// requires when the base lacks them (`iir` with `tt`), where validation allows it.
fn golden_specs() -> Vec<String> {
    let mut specs: Vec<String> = PRESETS.iter().map(|p| p.name.to_string()).collect();
    for base in ["plain", "ifrit-plain"] {
        for info in REGISTRY {
            let spec = switched_on(base, info.id);
            if configure(&spec, None, 0).is_ok() {
                specs.push(spec);
            }
        }
    }
    specs
}

/// `base` with `id` switched on, after the heuristics it requires where `base` lacks them
/// (`history_pruning` reads `continuation_history`'s tables, `iir` the hash table's moves), and
/// what those require in turn (`multi_cut` reads `singular_extension`'s verification, which
/// reads the table): a heuristic is refused without them.
fn switched_on(base: &str, id: Id) -> String {
    let alone = format!("{base},+{}", id.name());
    if configure(&alone, None, 0).is_ok() {
        return alone;
    }
    let mut required = Vec::new();
    add_required(id, &mut required);
    let required: String = required
        .iter()
        .map(|required| format!(",+{}", required.name()))
        .collect();
    format!("{base}{required},+{}", id.name())
}

/// What `id` requires, each after what it requires itself, each once.
fn add_required(id: Id, out: &mut Vec<Id>) {
    for &required in id.info().requires {
        add_required(required, out);
        if !out.contains(&required) {
            out.push(required);
        }
    }
}

/// Full-width minimax presets are measured shallower: they have no cut-offs at all, and the
/// bench's tactical middlegames make even their quiescence large.
fn golden_depth(spec: &str) -> u32 {
    if spec.starts_with("minimax") {
        2
    } else {
        GOLDEN_DEPTH
    }
}

/// The golden specs' bench counts at their golden depths, measured once for the tests that read
/// them (the golden table itself, and each heuristic's change at `GOLDEN_DEPTH`).
fn golden_counts() -> &'static BTreeMap<String, u64> {
    static COUNTS: OnceLock<BTreeMap<String, u64>> = OnceLock::new();
    COUNTS.get_or_init(|| {
        let specs = golden_specs();
        let jobs: Vec<(String, u32, u64)> = specs
            .iter()
            .map(|s| (s.clone(), golden_depth(s), 0))
            .collect();
        let counts = bench_counts(&jobs);
        specs.into_iter().zip(counts).collect()
    })
}

#[test]
fn golden_bench_signatures() {
    let table = golden_counts();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN_FILE);
    let golden: BTreeMap<String, u64> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let mut differences = Vec::new();
    for (spec, nodes) in table {
        match golden.get(spec) {
            Some(expected) if expected == nodes => {}
            Some(expected) => differences.push(format!("{spec}: {nodes} (golden {expected})")),
            None => differences.push(format!("{spec}: {nodes} (not in the golden table)")),
        }
    }
    for spec in golden.keys().filter(|spec| !table.contains_key(*spec)) {
        differences.push(format!("{spec}: no longer measured"));
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        // Said on the stderr handle, which libtest does not capture: a rewrite is never silent.
        let mut said = std::io::stderr();
        let _ = writeln!(
            said,
            "UPDATE_GOLDEN: {} of {} signatures changed{}",
            differences.len(),
            table.len(),
            differences
                .iter()
                .map(|d| format!("\n  {d}"))
                .collect::<String>()
        );
        let text = serde_json::to_string_pretty(&table).unwrap();
        std::fs::write(&path, text + "\n").unwrap();
        return;
    }
    assert!(
        !golden.is_empty(),
        "the golden table exists (UPDATE_GOLDEN=1 makes it)"
    );
    assert!(
        differences.is_empty(),
        "bench signatures changed at depth {GOLDEN_DEPTH}:\n{}",
        differences.join("\n")
    );
}

/// Where a heuristic is measured: over `plain` at the golden table's depth (so that its counts
/// are the golden table's, measured once), except `rsi`,
/// whose flags apply only beyond ply 5 (002), so it needs depth 7 (over `classic`, to keep
/// that affordable); `iir`, which needs the hash table (over `classic`); and the prunings of
/// null-window nodes, `reverse_futility`, `late_move_pruning` and `probcut` (tried from depth 3), which need `pvs` to make
/// such nodes (over `plain,pvs`); and `history_pruning`, which reads `continuation_history`'s
/// tables (over `plain,continuation_history`, so that only the pruning differs); and
/// `null_move_guarded`, which needs the bench's depth (over `plain`).
fn base_of(id: Id) -> (&'static str, u32) {
    match id {
        Id::Rsi => ("classic", 7),
        Id::Iir => ("classic", bench::DEFAULT_DEPTH),
        Id::ReverseFutility | Id::LateMovePruning => ("plain,pvs", bench::DEFAULT_DEPTH),
        // Probcut's least depth lowered to 3: at 5 only the root is that deep at this depth.
        Id::Probcut => ("plain,pvs,probcut.min_depth=3", bench::DEFAULT_DEPTH),
        Id::HistoryPruning => ("plain,continuation_history", bench::DEFAULT_DEPTH),
        // Tried beyond ply 2 only (002): at depth 4 no node there has depth left for it.
        Id::NullMoveGuarded => ("plain", bench::DEFAULT_DEPTH),
        _ => ("plain", GOLDEN_DEPTH),
    }
}

#[test]
fn every_pruning_and_ordering_heuristic_changes_the_bench_and_ordering_reduces_it() {
    let measured: Vec<Id> = REGISTRY
        .iter()
        .filter(|info| {
            matches!(
                info.kind,
                Kind::Ordering | Kind::NodePruning | Kind::MovePruning | Kind::Reduction
            )
        })
        .map(|info| info.id)
        .collect();
    // The counts the golden table holds are read from it; the others are measured here.
    let mut known: BTreeMap<(String, u32), u64> = golden_counts()
        .iter()
        .map(|(spec, &nodes)| ((spec.clone(), golden_depth(spec)), nodes))
        .collect();
    let mut jobs = Vec::new();
    for &id in &measured {
        let (base, depth) = base_of(id);
        for spec in [base.to_string(), switched_on(base, id)] {
            if !known.contains_key(&(spec.clone(), depth)) {
                jobs.push((spec, depth, 0));
            }
        }
    }
    jobs.sort();
    jobs.dedup();
    for ((spec, depth, _), nodes) in jobs.iter().zip(bench_counts(&jobs)) {
        known.insert((spec.clone(), *depth), nodes);
    }
    let count = |spec: &str, depth: u32| known[&(spec.to_string(), depth)];
    let mut failures = Vec::new();
    for id in measured {
        let (base, depth) = base_of(id);
        let without = count(base, depth);
        let with = count(&switched_on(base, id), depth);
        if with == without {
            failures.push(format!(
                "{} does not change the bench over {base} at depth {depth} ({with})",
                id.name()
            ));
        }
        if id.kind() == Kind::Ordering && with >= without {
            failures.push(format!(
                "{} does not reduce the bench over {base}: {with} >= {without}",
                id.name()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn strong_presets_solve_the_project_tactics() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/tactics.epd");
    let records = epd::read_file(&path).expect("tactics suite reads");
    assert!(records.len() >= 8);
    for preset in ["classic", "all"] {
        for record in &records {
            let config = SearchConfig {
                limits: Limits::depth(5),
                ..configure(preset, None, 0).unwrap()
            };
            let result = search(
                Position::new(record.board.clone(), config.eval),
                config,
                &mut Silent,
            )
            .unwrap();
            let best = result.best_move.expect("a move");
            let expected: Vec<_> = record
                .operands("bm")
                .unwrap()
                .iter()
                .map(|san| parse_san_move(&record.board, san).unwrap())
                .collect();
            assert!(
                expected.contains(&best),
                "{preset} played {best} in {}",
                record.id()
            );
        }
    }
}

#[test]
fn same_spec_and_seed_give_the_same_nodes_and_seeds_matter_for_gsr() {
    let jobs: Vec<(String, u32, u64)> = vec![
        ("kornilov".into(), 4, 7),
        ("kornilov".into(), 4, 7),
        ("classic,gsr".into(), 6, 1),
        ("classic,gsr".into(), 6, 2),
        ("all".into(), 4, 3),
        ("all".into(), 4, 3),
    ];
    let counts = bench_counts(&jobs);
    assert_eq!(counts[0], counts[1], "kornilov, same seed");
    assert_ne!(counts[2], counts[3], "gsr with two seeds");
    assert_eq!(counts[4], counts[5], "all, same seed");
}

#[test]
fn plain_ignores_the_seed() {
    let counts = bench_counts(&[("plain".into(), 3, 1), ("plain".into(), 3, 99)]);
    assert_eq!(counts[0], counts[1]);
}

/// Every counter of the registry (each form of each heuristic) counts something in a
/// configuration that switches its heuristic on, and every count keeps the one meaning of
/// stats.rs: `overruled <= fired <= tested`. A heuristic added to the registry but consulted
/// nowhere, or a form counted under another key, fails here.
#[test]
fn every_counter_counts_with_one_meaning() {
    use searchlab::engine::heuristics::SignalRule;
    use searchlab::engine::stats::{Counter, SearchStats};

    let positions: Vec<_> = bench::bench_positions().into_iter().take(12).collect();
    let mut specs = vec![
        "all".to_string(),
        "modern".to_string(),
        // With classic's check extension, which modern leaves out: the deeper tree is where
        // LMR's reduction outgrows GSR's and a singular move is already extended when it checks.
        "modern,+gsr,+check_extension".to_string(),
        "modern,see.quiet_depth=9".to_string(),
        "modern,probcut,probcut.min_depth=3".to_string(),
        // At this depth only with a lower minimum (Ethereal's 8 is beyond the test's 5).
        "modern,+check_extension,singular_extension.min_depth=3".to_string(),
        // Multi-cut reads the singular verification, at the same lowered minimum.
        "modern,multi_cut,singular_extension.min_depth=3".to_string(),
        // So does the negative extension.
        "modern,negative_extension,singular_extension.min_depth=3".to_string(),
        // The table's score standing in for the evaluation is a parameter of `tt`, off in modern.
        "modern,tt.score_as_eval=true".to_string(),
        // The history extension's limit is on Ethereal 12's history scale, and at this depth
        // only a lower one is reached; with classic's check extension, a checking move it would
        // extend is the check extension's (a singular one the singular extension's).
        "modern,+history_extension,history_extension.limit=100,+check_extension,singular_extension.min_depth=3,continuation_history.scale=32,continuation_history.max_bonus=400".to_string(),
    ];
    for info in REGISTRY {
        specs.push(switched_on("classic", info.id));
        if matches!(info.signal, SignalRule::Either | SignalRule::Any) {
            specs.push(format!("classic,+{0},{0}.side=beta", info.name));
        }
    }
    let mut counted = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    let mut totals = std::collections::BTreeMap::new();
    for spec in &specs {
        let config = configure(spec, None, 0).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let stats: SearchStats = bench::run(&positions, 5, config.clone(), None, |_| {})
            .unwrap()
            .stats;
        for (counter, c) in stats.heuristics.nonzero() {
            if c.tested > 0 {
                counted.insert(counter);
            }
            *totals.entry(counter).or_insert(Default::default()) += c;
            if c.fired > c.tested || c.overruled > c.fired {
                failures.push(format!("{spec}: {} counted {c:?}", counter.key()));
            }
            if !config.heuristics.enabled(counter.id()) {
                failures.push(format!("{spec}: {} is off but counted", counter.key()));
            }
        }
    }
    for counter in Counter::all() {
        if !counted.contains(&counter) {
            failures.push(format!("{} never counted", counter.key()));
        }
        // A counter that cannot be false measures nothing: every decision that is not a
        // scheme (whose registry meaning says it fires whenever tested) declines somewhere.
        let c: searchlab::engine::stats::Counters =
            totals.get(&counter).copied().unwrap_or_default();
        let scheme = counter.meaning().starts_with("tested and fired");
        if !scheme && c.fired >= c.tested {
            failures.push(format!("{} fired at every test: {c:?}", counter.key()));
        }
    }
    for info in REGISTRY {
        let counters = Counter::of_heuristic(info.id).count();
        if info.meanings.len() != counters {
            failures.push(format!(
                "{}: {} meanings for {counters} counters",
                info.name,
                info.meanings.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The counters of a classic search: the PV move does not always stay best, the nega-scout
/// scheme's shallower probe does not always stand, and futility's pre-frontier form is tested
/// only where it could act (not at every move of the tree, null-move searches included).
#[test]
fn classic_counters_can_be_false() {
    use searchlab::engine::stats::Counter;
    let key = |k: &str| Counter::from_key(k).unwrap();
    let positions: Vec<_> = bench::bench_positions().into_iter().take(12).collect();
    let run = |spec: &str| {
        let config = configure(spec, None, 0).unwrap();
        bench::run(&positions, 6, config, None, |_| {})
            .unwrap()
            .stats
    };
    let classic = run("classic");
    let pv = classic.heuristics.get(key("pv_move"));
    assert!(pv.fired > 0 && pv.fired < pv.tested, "pv_move {pv:?}");
    let pre = classic.heuristics.get(key("futility.pre_frontier"));
    // A move made in the main search enters an interior or a horizon node, or is skipped by
    // the pre-frontier form once made (the roots and null moves are few beside them). Before
    // it asked its preconditions, the pre-frontier form was "tested" at 99.7% of them.
    let moves_made = classic.interior + classic.horizon + pre.fired;
    assert!(
        pre.tested * 10 < moves_made * 9,
        "pre-frontier futility tested at {} of {moves_made} moves made",
        pre.tested
    );
    // check_extension is tested on checks only (and pawns to the seventh), a small share.
    let extension = classic.heuristics.get(key("check_extension"));
    assert!(
        extension.tested > 0 && extension.tested * 5 < moves_made,
        "check_extension {extension:?} of {moves_made}"
    );
    let nega = run("classic,+iid_null_window")
        .heuristics
        .get(key("iid_null_window"));
    assert!(
        nega.fired > 0 && nega.fired < nega.tested,
        "iid_null_window {nega:?}"
    );
}

/// WAC.001's mate in two (Qg6, then Qh7# or Nxf7#) needs a quiet checking move that late move
/// pruning once skipped, and a reply node that reverse futility once cut under the network
/// (margin 70; `reverse_futility.rs`): the UCI default finds it by depth 8.
#[test]
fn the_uci_default_finds_wac_001s_mate_by_depth_8() {
    let board = searchlab::engine::fen::parse_position(
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    )
    .unwrap();
    let config = SearchConfig {
        limits: Limits::depth(8),
        ..configure(searchlab::uci::DEFAULT_PRESET, None, 0).unwrap()
    };
    let pos = Position::new(board.clone(), config.eval);
    let result = search(pos, config, &mut Silent).unwrap();
    let best = result.best_move.unwrap();
    assert_eq!(searchlab::engine::notation::san(&board, best), "Qg6");
    assert!(
        result.score >= searchlab::engine::score::MATE_BOUND,
        "{}",
        result.score
    );
}
