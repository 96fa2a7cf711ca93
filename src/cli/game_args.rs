//! What a command that plays games shares (`match`, `tune`): openings, limits, adjudication,
//! concurrency, seed, hash, the engines' log.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::harness::external;
use crate::harness::games::book::openings::{self, Opening, OpeningOrder};
use crate::harness::games::clock::control::{Control, PlayerControl, player_control};
use crate::harness::games::clock::levels::{self, Levels};
use crate::harness::games::clock::reference_speed::{
    self, ReferenceClock, ReferenceRequest, SpeedReading,
};
use crate::harness::games::playing::adjudication::{Adjudication, DrawRule, ResignRule};
use crate::harness::games::playing::game::Rules;
use crate::harness::variant::Variant;

/// `--OPTION TEXT` as one number.
fn number<T: std::str::FromStr>(option: &str, text: Option<&str>) -> Result<Option<T>, String> {
    let Some(text) = text else { return Ok(None) };
    text.trim()
        .parse()
        .map(Some)
        .map_err(|_| format!("--{option} takes a whole number, got '{text}'"))
}

/// The games' settings.
#[derive(clap::Args, Clone, Debug)]
pub struct GameArgs {
    /// Openings: an EPD file (one position a line) or a PGN file (`.pgn`: the moves of each
    /// game). Each opening is played twice, colours reversed.
    #[arg(long)]
    pub openings: PathBuf,
    /// Keep at most this many book moves of each PGN game.
    #[arg(long)]
    pub opening_plies: Option<usize>,
    /// A game clock `MOVES/SECONDS+INC`, `SECONDS+INC` or `M:SS+INC` (e.g. `8+0.08`,
    /// `0:10+0.1`); `inf` with --nodes or --depth. The match's limits (this, --movetime,
    /// --nodes, --depth) are every player's but a player's own `tc=`, `st=`, `nodes=`,
    /// `depth=`; one of them is needed unless every player has its own. `match` takes one of
    /// them as a list of levels of effort (`--tc 1+0.01,4+0.04,16+0.16`, `--nodes
    /// 2000,8000,32000`): every pairing is played at every level, each level a match of its
    /// own in a folder named after it beside --out, and their report draws Elo against effort.
    #[arg(long, value_name = "TC[,TC...]")]
    pub tc: Option<String>,
    /// A fixed time per move, milliseconds (a list: levels, as --tc).
    #[arg(long, value_name = "MS[,MS...]")]
    pub movetime: Option<String>,
    /// A node budget per move, deterministic games (a list: levels, as --tc).
    #[arg(long, value_name = "N[,N...]")]
    pub nodes: Option<String>,
    /// A depth per move, deterministic games (a list: levels, as --tc).
    #[arg(long, value_name = "D[,D...]")]
    pub depth: Option<String>,
    /// Scale the time limits (--tc, --movetime, and players' own tc= and st=) to this
    /// reference speed, the yardstick's nodes a second on the reference machine: before the
    /// first game the yardstick runs three times here and every limit is multiplied by
    /// reference ÷ measured (the median), as OpenBench scales its workers' time controls by
    /// their bench. Measured again at the end (a warning beyond 10%); a resumed match keeps
    /// its header's factor and records the new reading. The yardstick must not be the code
    /// under test when the question is that code's speed (a faster build measured by its own
    /// bench is given less time): prefer a fixed program, a peer engine's bench or a kept
    /// reference build.
    #[arg(long)]
    pub reference_nps: Option<f64>,
    /// The yardstick of --reference-nps: a command that prints its nodes a second (`N nps`,
    /// `NPS : N`, `Nodes/second : N`), e.g. "/usr/games/ethereal-chess bench". Default: this
    /// binary's own `bench` (the code under test: see --reference-nps).
    #[arg(long)]
    pub reference_bench: Option<String>,
    /// How far a move may overrun its clock before it loses on time, ms. The default, 100 ms,
    /// covers a shared machine's scheduling and the pipes (fastchess uses 0, but measures a
    /// move's time on its own side of the pipe); a move that overruns more loses on time.
    #[arg(long, default_value_t = 100)]
    pub timemargin: u64,
    /// Time searchlab's in-process players keep in hand per move for the machine's delays
    /// (their UCI `Move Overhead`), ms: under a clock a move is budgeted from the time left
    /// less this. External engines set theirs with `option.Move Overhead=` (or their own
    /// name for it).
    #[arg(long, default_value_t = crate::engine::config::MOVE_OVERHEAD_MS)]
    pub move_overhead: u64,
    /// Draw adjudication `movenumber=N,movecount=N,score=CP` (off by default).
    #[arg(long)]
    pub draw: Option<String>,
    /// Resign adjudication `movecount=N,score=CP[,twosided=true]` (off by default).
    #[arg(long)]
    pub resign: Option<String>,
    /// Adjudicate a draw once each side has made N moves in the game (book moves not counted).
    #[arg(long)]
    pub maxmoves: Option<u32>,
    /// The order the openings are taken in: `random` (a permutation seeded by --seed) or
    /// `sequential` (the file's order).
    #[arg(long, default_value = "random")]
    pub openings_order: String,
    /// The first opening played, 1-based, in that order (later ones follow, wrapping around).
    #[arg(long, default_value_t = 1)]
    pub openings_start: usize,
    /// Games played at once (each single-threaded).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seeds the openings' order and every variant's search.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Transposition table of each in-process player, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Log every line sent to and received from each engine, and the engines' stderr, with
    /// the time and the engine, into this file (fastchess's `-log`).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// What `--log` keeps (fastchess's `-log level=`): `trace`, every line (the default);
    /// `info`, all but the engines' `info` lines (their search output); `warn`, `err` or
    /// `fatal`, only what the engines write on stderr.
    #[arg(long, default_value = "trace", requires = "log")]
    pub log_level: String,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
}

/// The games' settings, checked, for these players.
pub struct GameSetup {
    pub rules: Rules,
    pub openings: Vec<Opening>,
    pub opening_order: OpeningOrder,
    pub concurrency: usize,
    /// `--reference-nps` and `--reference-bench`, checked; the limits in `rules` are the
    /// reference's until `scale_to_reference` scales them.
    pub reference: Option<ReferenceRequest>,
    /// The yardstick's reading on resuming a scaled match (its header's factor kept), which
    /// the match file records after the pairs already played: a report then says how far the
    /// machine had moved when the games went on.
    pub resumed_reading: Option<SpeedReading>,
}

impl GameSetup {
    /// Scale the limits to the reference speed, if one was asked for: measure this machine
    /// with the yardstick and multiply every time limit by reference ÷ measured. Resuming a
    /// file whose header scaled (`previous`), the header's factor is kept and the new
    /// measurement only checked against it and kept in `resumed_reading`. Prints the scaling;
    /// returns what a header records.
    pub fn scale_to_reference(
        &mut self,
        previous: Option<&ReferenceClock>,
    ) -> Result<Option<ReferenceClock>, String> {
        let Some(request) = &self.reference else {
            return Ok(None);
        };
        let name = request.yardstick_name();
        let reading = reference_speed::measure(request)?;
        let own: BTreeMap<_, _> = self.rules.own.clone();
        let mut clock = reference_speed::clock(request, reading, self.rules.control, own);
        if let Some(old) = previous.filter(|old| {
            old.yardstick == clock.yardstick && old.reference_nps == clock.reference_nps
        }) {
            if let Some(warning) = reference_speed::drift_warning(
                &name,
                old.measured.nps,
                clock.measured.nps,
                "on resuming",
            ) {
                eprintln!("warning: {warning}");
            }
            eprintln!(
                "reference clock: resumed: the header's factor {:.4} is kept (measured {:.2} M nodes/s now, {:.2} M when the match began)",
                old.factor,
                clock.measured.nps / 1e6,
                old.measured.nps / 1e6
            );
            self.resumed_reading = Some(clock.measured.clone());
            clock.measured = old.measured.clone();
            clock.factor = old.factor;
        }
        self.rules.control = reference_speed::scale(self.rules.control, clock.factor);
        for own in self.rules.own.values_mut() {
            own.control = reference_speed::scale(own.control, clock.factor);
        }
        eprintln!("{}", clock.describe(&self.rules.control));
        Ok(Some(clock))
    }
}

impl GameArgs {
    /// The limit given as a list of levels of effort, if one is: at most one limit option may
    /// be a list.
    pub fn levels(&self) -> Result<Option<Levels>, String> {
        let mut found: Option<Levels> = None;
        for (option, text) in self.limits() {
            let Some(text) = text else { continue };
            if let Some(levels) = levels::parse(option, text)? {
                if let Some(first) = &found {
                    return Err(format!(
                        "levels vary one limit: --{} and --{option} are both lists",
                        first.option
                    ));
                }
                found = Some(levels);
            }
        }
        Ok(found)
    }

    /// These settings at one level: the list replaced by its `level`th value.
    pub fn at_level(&self, levels: &Levels, level: usize) -> GameArgs {
        let mut at = self.clone();
        let value = Some(levels.values[level].clone());
        match levels.option {
            "tc" => at.tc = value,
            "movetime" => at.movetime = value,
            "nodes" => at.nodes = value,
            _ => at.depth = value,
        }
        at
    }

    fn limits(&self) -> [(&'static str, Option<&str>); 4] {
        [
            ("tc", self.tc.as_deref()),
            ("movetime", self.movetime.as_deref()),
            ("nodes", self.nodes.as_deref()),
            ("depth", self.depth.as_deref()),
        ]
    }

    /// Open `--log` (before the players are probed, so it holds their handshake).
    pub fn start_log(&self) -> Result<(), String> {
        match &self.log {
            Some(path) => external::log_to(path, external::LogLevel::parse(&self.log_level)?),
            None => Ok(()),
        }
    }

    /// Check the settings and make the rules for `players` (the first one's control is the
    /// match's; a player with limits of its own plays under them: time or node odds).
    pub fn setup(&self, players: &[Variant]) -> Result<GameSetup, String> {
        if let Some((option, text)) = self
            .limits()
            .into_iter()
            .find_map(|(option, text)| Some((option, text?)).filter(|(_, t)| t.contains(',')))
        {
            return Err(format!(
                "--{option} '{text}': levels of effort are played by `match`, level by level; give one value here"
            ));
        }
        self.start_log()?;
        if !(1..=8192).contains(&self.hash) {
            return Err(format!("--hash must be 1..8192 MiB, got {}", self.hash));
        }
        let concurrency = self.concurrency.max(1);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if concurrency > cores {
            eprintln!(
                "warning: --concurrency {concurrency} on {cores} cores: games share cores, so timed games lose strength unevenly"
            );
        }
        if self.maxmoves == Some(0) {
            return Err("--maxmoves must be at least 1".into());
        }
        let adjudication = Adjudication {
            draw: self.draw.as_deref().map(DrawRule::parse).transpose()?,
            resign: self.resign.as_deref().map(ResignRule::parse).transpose()?,
            max_moves: self.maxmoves,
        };
        let (base, own) = self.player_controls(players)?;
        let openings = openings::read(&self.openings, self.opening_plies)?;
        let opening_order = self.opening_order(openings.len())?;
        Ok(GameSetup {
            rules: Rules {
                control: base.control,
                adjudication,
                margin_ms: base.margin_ms,
                overhead_ms: self.move_overhead,
                own,
            },
            openings,
            opening_order,
            concurrency,
            reference: ReferenceRequest::new(self.reference_nps, self.reference_bench.as_deref())?,
            resumed_reading: None,
        })
    }

    /// The baseline's limits, and those of the players whose own differ from them.
    pub fn player_controls(
        &self,
        players: &[Variant],
    ) -> Result<(PlayerControl, BTreeMap<String, PlayerControl>), String> {
        let limits = [
            self.tc.is_some(),
            self.movetime.is_some(),
            self.nodes.is_some(),
            self.depth.is_some(),
        ];
        let given = limits
            .contains(&true)
            .then(|| {
                Control::from_options(
                    self.tc.as_deref(),
                    number("movetime", self.movetime.as_deref())?,
                    number("nodes", self.nodes.as_deref())?,
                    number("depth", self.depth.as_deref())?,
                )
            })
            .transpose()?;
        let mut controls = Vec::new();
        for v in players {
            controls.push((
                v.label.clone(),
                player_control(&v.label, &v.limits, given, self.timemargin)?,
            ));
        }
        let reference = ReferenceRequest::new(self.reference_nps, self.reference_bench.as_deref())?;
        if reference.is_some() {
            match given {
                Some(control) => reference_speed::check_scalable(&control)?,
                None => reference_speed::check_scalable(&controls[0].1.control)?,
            }
        }
        let base = controls[0].1;
        let own: BTreeMap<_, _> = controls.into_iter().filter(|(_, c)| *c != base).collect();
        Ok((base, own))
    }

    /// `--openings-order` and `--openings-start` over `count` openings.
    fn opening_order(&self, count: usize) -> Result<OpeningOrder, String> {
        let sequential = match self.openings_order.as_str() {
            "random" => false,
            "sequential" => true,
            other => {
                return Err(format!(
                    "--openings-order is random or sequential, got '{other}'"
                ));
            }
        };
        if self.openings_start == 0 || self.openings_start > count {
            return Err(format!(
                "--openings-start is 1..{count} (the openings file holds {count}), got {}",
                self.openings_start
            ));
        }
        Ok(OpeningOrder {
            sequential,
            start: self.openings_start,
        })
    }
}
