//! The `searchlab` command line: clap definitions and dispatch, nothing else.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use searchlab::cli;

/// A research harness for chess search heuristics. With no command, speaks UCI.
#[derive(Parser)]
#[command(name = "searchlab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Evaluate `nnue` with this network file (written by `train`) instead of the embedded one,
    /// for every command, UCI included: a candidate net tried before it is embedded, or the net
    /// that plays the next generation's data. Results headers record its checksum.
    #[arg(long, global = true, value_name = "FILE")]
    net: Option<PathBuf>,
}

/// What `searchlab uci --help` lists: the commands understood and the options offered.
const UCI_HELP: &str = "\
Commands (one per line on stdin): uci, isready, ucinewgame, setoption name N value V,
position startpos|fen FEN [moves M...], go [depth N | nodes N | movetime MS | wtime MS btime MS
[winc MS] [binc MS] [movestogo N] | infinite | mate N] [searchmoves M...] [ponder], stop, quit.

Options (setoption): Hash (MiB, 1..8192), Threads (1), Move Overhead (ms), MultiPV, Clear Hash,
CounterInfo (print the counters protocol's lines before bestmove, docs/protocol.md),
Algorithm (alphabeta|minimax), Eval (full|material|nnue; default full), Seed (0..2147483647),
Heuristics (a SPEC, as for `search`; default modern, the strongest preset in games; it sets
the evaluation only when it names one, eval=...), and one option per
heuristic: `<id>` (check: on/off) and `<id>.<param>` (its parameters, with their declared
ranges). `uci` prints the full list with types, defaults and ranges; `searchlab heuristics`
documents each.

Example: printf 'position startpos moves e2e4\\ngo depth 6\\n' | searchlab uci";

#[derive(Subcommand)]
enum Command {
    /// Speak the UCI protocol on stdin/stdout (the default with no command).
    #[command(after_help = UCI_HELP)]
    Uci,
    /// Count the leaves of the legal move tree (move generation check).
    #[command(after_help = "Example: searchlab perft startpos 5 --divide")]
    Perft(cli::PerftArgs),
    /// Search one position and print one line per completed iteration:
    /// `depth/seldepth  time  nodes  nps  score  PV` (the iteration's own nodes and time, in
    /// milliseconds under ten seconds, score in pawns, PV in standard algebraic notation,
    /// `[searched N]` where a fail high was searched again shallower), then the node
    /// breakdown. `reproduce` prints the documents' own format.
    #[command(after_help = "Example: searchlab search startpos --depth 6 --algorithm minimax")]
    Search(cli::SearchArgs),
    /// Search the bench suite at a fixed depth, single-threaded, fresh state per position.
    /// The last line, `<N> nodes <M> nps`, gives the engine's signature N. With no
    /// `--heuristics` it benches the configuration the UCI engine plays (as OpenBench expects);
    /// `--heuristics plain` is the research baseline's bench.
    #[command(after_help = "Example: searchlab bench --depth 5 --heuristics plain")]
    Bench(cli::BenchArgs),
    /// Run variants over EPD suites and record every search as JSON Lines (resumable).
    /// With no arguments: the main job, six heuristics (killers, quiescence,
    /// futility, momentum, EMA channel, GSR) each toggled against `classic` on the project's
    /// own suites, written under reports/latest/main/ with its report.
    #[command(
        after_help = "Example: searchlab run --suite wac.epd --variant plain --variant classic --depth 6"
    )]
    Run(cli::RunArgs),
    /// Render a report (Markdown, SVG charts, CSV, analysis.json) from results files only.
    #[command(
        after_help = "Example: searchlab report reports/heuristics/main/results.jsonl.gz --out /tmp/report"
    )]
    Report(cli::ReportArgs),
    /// Search the source documents' two tables again (quiescence: source document 000;
    /// killers: source document 003) and write them beside Ifrit's numbers: Markdown, JSON
    /// and SVG.
    #[command(after_help = "Example: searchlab reproduce --quick --out /tmp/reproduction")]
    Reproduce(cli::ReproduceArgs),
    /// Join the results files of the shards of one run into one file.
    #[command(after_help = "Example: searchlab merge --out all.jsonl s1.jsonl s2.jsonl")]
    Merge(cli::MergeArgs),
    /// Play games between variants (and external UCI engines): game pairs from each opening
    /// with the colours reversed, a real clock, an optional SPRT that stops when decided;
    /// results as JSON Lines (resumable, shardable) and PGN.
    #[command(
        name = "match",
        after_help = "Example: searchlab match --variant classic --variant gsr=classic,+gsr --openings suites/openings.epd --tc 8+0.08 --sprt elo0=0,elo1=10 --concurrency 2 --pgn games.pgn\n\nA fastchess command line as typed: searchlab match [OPTIONS] -- -engine cmd=./dev name=dev -engine cmd=./base name=base -each tc=8+0.08 -rounds 100 -repeat -openings file=suites/openings.epd format=epd -sprt elo0=0 elo1=5 (the equivalent searchlab command is printed first; docs/games.md lists what is understood)"
    )]
    Match(cli::MatchArgs),
    /// The SPRT of given counts as fishtest computes it: LLR with its bounds, the decision,
    /// Elo ± 95%, normalized Elo, LOS.
    #[command(
        after_help = "Example: searchlab sprt --wdl 4307,8620,4063 --elo0 0 --elo1 3 --model logistic"
    )]
    Sprt(cli::SprtArgs),
    /// Self-play games at a node limit per move, every scored position written with its score
    /// and the game's result for NNUE training (the bulletformat layout; resumable, shardable,
    /// the same file for any number of jobs).
    #[command(
        after_help = "Example: searchlab datagen --out data/gen1.bin --games 20000 --nodes 5000"
    )]
    Datagen(cli::DatagenArgs),
    /// Train an NNUE on datagen's positions: our own CPU trainer (AdamW, a validation split,
    /// a checkpoint after every epoch, a loss chart); writes the quantised network the engine
    /// reads.
    #[command(
        after_help = "Example: searchlab train --data data/gen1.bin --out nets/gen1.nnue --epochs 20"
    )]
    Train(cli::TrainArgs),
    /// List an external engine's UCI options as the harness sees them: check options are
    /// toggles for `--ablation`, spin options parameters for `--sweep option.NAME=VALUES`.
    #[command(
        name = "engine-options",
        after_help = "Example: searchlab engine-options --engine \"name=sf cmd=/usr/games/stockfish\""
    )]
    EngineOptions(cli::EngineOptionsArgs),
    /// Tune parameters by SPSA in games (fishtest's and OpenBench's schedule): searchlab's own
    /// (`--variant SPEC --param ID.PARAM`) or an engine's spin options (`--engine …
    /// --param option.NAME`); resumable, one JSON line per iteration; `report` draws θ.
    #[command(
        after_help = "Example: searchlab tune --variant modern --param lmr.base --param lmr.divisor --iterations 500 --nodes 5000 --openings suites/openings.epd --concurrency 2 --out tune.jsonl"
    )]
    Tune(cli::TuneArgs),
    /// Submit `run`, `match`, `datagen` or `tune` to a Slurm cluster: an array of N tasks,
    /// task I running the command with `--shard I/N` into DIR, and a job after them that
    /// merges the shards and writes the report (or the merged data and its provenance).
    /// Tasks are requeued when pre-empted and resume their files; a match's SPRT is decided
    /// on the merged pairs (docs/cluster.md).
    #[command(
        after_help = "Example: searchlab submit --tasks 16 --dir /shared/wac -- run --suite wac.epd --variant classic --depth 8"
    )]
    Submit(cli::SubmitArgs),
    /// A submission's standing from its folder's files alone: tasks finished, running,
    /// failed; results so far (a match's W-D-L, Elo and merged SPRT); time left.
    #[command(after_help = "Example: searchlab status /shared/wac")]
    Status(cli::StatusArgs),
    /// List every heuristic (id, kind, source document, parameters and defaults) and every
    /// preset; with `--spsa SPEC`, OpenBench's SPSA input lines for the configuration's
    /// parameters instead.
    #[command(after_help = "Example: searchlab heuristics --spsa modern")]
    Heuristics(cli::HeuristicsArgs),
}

/// Output piped into `head` or a pager that quits: stop quietly, as command-line tools do,
/// instead of reporting a panic. (Rust ignores SIGPIPE, so the write fails and `println!`
/// panics; the default signal action is not restored because a run writes to external
/// engines' pipes, and one of them closing must not kill the run.)
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// The command line; `searchlab match -- ARGS`, a fastchess command line, is translated and
/// its equivalent shown first.
fn parse_command_line() -> Result<Cli, String> {
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match cli::fastchess::translate_argv(&argv) {
        None => Ok(Cli::parse()),
        Some(Err(why)) => Err(why),
        Some(Ok((mut args, translation))) => {
            if let Some(out) = cli::fastchess::default_out(&args, &translation.names) {
                eprintln!("results: {out} (no --out given)");
                args.splice(2..2, ["--out".to_string(), out]);
            }
            for note in &translation.notes {
                eprintln!("note: {note}");
            }
            eprintln!("equivalent: {}", cli::fastchess::command_line(&args));
            Ok(Cli::parse_from(args))
        }
    }
}

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let cli = match parse_command_line() {
        Ok(cli) => cli,
        Err(why) => {
            eprintln!("error: searchlab match -- (a fastchess command line): {why}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(path) = &cli.net {
        let installed = searchlab::engine::nnue::read_file(path)
            .and_then(|bytes| searchlab::engine::nnue::set_default(&bytes));
        if let Err(why) = installed {
            eprintln!("error: --net {}: {why}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let outcome = match cli.command {
        None | Some(Command::Uci) => {
            searchlab::uci::UciEngine::new().run_stdin();
            Ok(())
        }
        Some(Command::Perft(args)) => cli::perft(&args),
        Some(Command::Search(args)) => cli::search(&args),
        Some(Command::Bench(args)) => cli::bench(&args),
        Some(Command::Run(args)) => cli::run(&args),
        Some(Command::Report(args)) => cli::report(&args),
        Some(Command::Reproduce(args)) => cli::reproduce(&args),
        Some(Command::Merge(args)) => cli::merge(&args),
        Some(Command::Match(args)) => cli::play_match(&args),
        Some(Command::Sprt(args)) => cli::sprt(&args),
        Some(Command::Datagen(args)) => cli::datagen(&args),
        Some(Command::Train(args)) => cli::train(&args),
        Some(Command::EngineOptions(args)) => cli::engine_options(&args),
        Some(Command::Tune(args)) => cli::tune(&args),
        Some(Command::Submit(args)) => cli::submit(&args),
        Some(Command::Status(args)) => cli::status(&args),
        Some(Command::Heuristics(args)) => cli::heuristics(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("searchlab: {message}");
            ExitCode::FAILURE
        }
    }
}
