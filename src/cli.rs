//! What each command of the `searchlab` binary does; `main.rs` only parses arguments and
//! dispatches here. Every function returns a message for the user instead of panicking.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use cozy_chess::Board;

use crate::engine::config::{Algorithm, Limits, SearchConfig};
use crate::engine::eval::EvalKind;
use crate::engine::heuristics::{HeuristicsConfig, REGISTRY, spec};
use crate::engine::notation;
use crate::engine::perft;
use crate::engine::position::Position;
use crate::engine::search::{self, IterationInfo, Observer};
use crate::engine::stats::SearchStats;
use crate::harness::bench;

/// Read `startpos` or a FEN.
pub fn parse_position(text: &str) -> Result<Board, String> {
    let text = text.trim();
    if text == "startpos" {
        return Ok(Board::default());
    }
    // An EPD-style FEN without move counters gets "0 1".
    let fields = text.split_whitespace().count();
    let completed = match fields {
        4 => format!("{text} 0 1"),
        5 => format!("{text} 1"),
        _ => text.to_string(),
    };
    Board::from_fen(&completed, false).map_err(|e| {
        let hint = if text.split_whitespace().count() < 4 {
            " (a FEN has at least 4 fields: quote it as one argument)"
        } else {
            ""
        };
        format!("invalid position '{text}': {e}{hint}")
    })
}

/// Time as the documents print it: `mm:ss`.
pub fn mm_ss(time: Duration) -> String {
    let secs = time.as_secs();
    format!("{:02}:{:02}", secs / 60, secs % 60)
}

/// `searchlab perft`.
pub fn perft(position: &str, depth: u32, divide: bool) -> Result<(), String> {
    let board = parse_position(position)?;
    let start = std::time::Instant::now();
    let total = if divide {
        let mut total = 0;
        for (mv, nodes) in perft::divide(&board, depth) {
            println!("{}: {nodes}", notation::uci(&board, mv));
            total += nodes;
        }
        println!();
        total
    } else {
        perft::perft(&board, depth)
    };
    println!("perft({depth}) = {total}");
    eprintln!(
        "{} ms, {} leaves/s",
        start.elapsed().as_millis(),
        search::nps(total, start.elapsed())
    );
    Ok(())
}

/// Prints the documents' iteration line.
struct IterationTable;

impl Observer for IterationTable {
    fn iteration(&mut self, root: &Board, info: &IterationInfo) {
        println!(
            "{}/{}  {}  {}  {}  {}  {}",
            info.depth,
            info.seldepth,
            mm_ss(info.iteration_time),
            info.stats.nodes(),
            info.iteration_nps(),
            notation::pawns(info.score),
            notation::line(root, &info.pv, notation::long)
        );
        let _ = std::io::stdout().flush();
    }
}

/// Arguments of `searchlab search`.
pub struct SearchArgs {
    /// `startpos` or a FEN.
    pub position: String,
    /// Deepest iteration.
    pub depth: u32,
    /// The heuristics SPEC.
    pub heuristics: String,
    /// PRNG seed.
    pub seed: u64,
    /// Overrides the SPEC's algorithm.
    pub algorithm: Option<Algorithm>,
    /// The static evaluation.
    pub eval: EvalKind,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Time budget, ms.
    pub movetime: Option<u64>,
}

/// A search configuration from a SPEC, an optional algorithm override and a seed; the
/// combination is validated.
pub fn configure(
    spec: &str,
    algorithm: Option<Algorithm>,
    seed: u64,
) -> Result<SearchConfig, String> {
    let mut setup = spec::parse(spec)?;
    if let Some(algorithm) = algorithm {
        setup.algorithm = algorithm;
        spec::validate(&setup)?;
    }
    Ok(SearchConfig {
        seed,
        ..SearchConfig::from_setup(setup)
    })
}

/// Print each enabled heuristic's counters.
fn print_counters(config: &SearchConfig, stats: &SearchStats) {
    for id in config.heuristics.enabled_ids() {
        let c = stats.heuristics.get(id);
        println!(
            "  {:<20} tested {:>12}  fired {:>12}  overruled {:>10}",
            id.name(),
            c.tested,
            c.fired,
            c.overruled
        );
    }
}

/// `searchlab search`.
pub fn search(args: &SearchArgs) -> Result<(), String> {
    let board = parse_position(&args.position)?;
    let depth = args.depth;
    if depth == 0 || depth >= search::MAX_PLY as u32 {
        return Err(format!("--depth must be 1..{}", search::MAX_PLY - 1));
    }
    let config = SearchConfig {
        eval: args.eval,
        limits: Limits {
            depth: Some(depth),
            nodes: args.nodes,
            movetime_ms: args.movetime,
            ..Limits::default()
        },
        ..configure(&args.heuristics, args.algorithm, args.seed)?
    };
    let result = search::search(
        Position::new(board.clone(), args.eval),
        config,
        &mut IterationTable,
    );
    if let Some(last) = result.iterations.last() {
        let s = last.stats;
        println!(
            "depth {}: interior {}  horizon {}  quiescence {}  seldepth {}  cut-offs {}  first-move cut-offs {} ({:.1}%)",
            last.depth,
            s.interior,
            s.horizon,
            s.quiescence,
            s.seldepth,
            s.cutoffs,
            s.first_move_cutoffs,
            100.0 * s.first_move_cutoff_rate()
        );
    }
    println!(
        "total: {} nodes in {} ms ({} nps)",
        result.stats.nodes(),
        result.elapsed.as_millis(),
        search::nps(result.stats.nodes(), result.elapsed)
    );
    if !config.heuristics.enabled_ids().is_empty() {
        println!("heuristics (whole search):");
        print_counters(&config, &result.stats);
    }
    match result.best_move {
        Some(mv) => println!("bestmove {}", notation::uci(&board, mv)),
        None => println!("bestmove (none): the side to move has no legal move"),
    }
    Ok(())
}

/// `searchlab heuristics`.
pub fn list_heuristics() {
    println!("Heuristics (toggle with --heuristics SPEC, UCI options of the same names):\n");
    for info in REGISTRY {
        println!("{}  [{:?}, source {}]", info.name, info.kind, info.source);
        println!("    {}", info.summary);
        let defaults = HeuristicsConfig::default().params_json(info.id);
        for (name, doc) in HeuristicsConfig::param_docs(info.id) {
            if *name == "enabled" {
                continue;
            }
            println!("    {}.{name} = {}  ({doc})", info.name, defaults[*name]);
        }
        println!();
    }
    println!("Presets:\n");
    for preset in spec::PRESETS {
        println!("{:<22} {}", preset.name, preset.description);
        if !preset.spec.is_empty() {
            println!("{:<22} = {}", "", preset.spec);
        }
    }
    println!(
        "\nSPEC: comma-separated items applied left to right from nothing: a preset, an id or +id, -id, id.param=value, algorithm=alphabeta|minimax."
    );
    println!("Example: --heuristics classic,-futility,+gsr,gsr.red2=3");
}

/// `searchlab bench`.
pub fn bench(
    depth: u32,
    heuristics: &str,
    seed: u64,
    suite: Option<&Path>,
    verbose: bool,
) -> Result<(), String> {
    if depth == 0 || depth >= search::MAX_PLY as u32 {
        return Err(format!("--depth must be 1..{}", search::MAX_PLY - 1));
    }
    let records = match suite {
        None => bench::bench_positions(),
        Some(path) => bench::read_suite(path).map_err(|errors| {
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })?,
    };
    let config = configure(heuristics, None, seed)?;
    let report = bench::run(&records, depth, config, |line| {
        if verbose {
            eprintln!(
                "{:<24} {:>12} nodes {:>8} ms",
                line.id,
                line.stats.nodes(),
                line.elapsed.as_millis()
            );
        }
    });
    println!(
        "{} positions, depth {depth}, {} ms",
        report.lines.len(),
        report.elapsed.as_millis()
    );
    if !config.heuristics.enabled_ids().is_empty() {
        println!("heuristics (all positions):");
        print_counters(&config, &report.stats);
    }
    println!("{} nodes {} nps", report.nodes(), report.nps());
    Ok(())
}
