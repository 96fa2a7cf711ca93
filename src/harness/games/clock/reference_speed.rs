//! A clock scaled to a reference speed: before the first game the machine's speed is measured
//! with a yardstick (a command that prints its nodes a second, the median of three runs) and
//! every time limit is multiplied by reference ÷ measured, as OpenBench scales each worker's
//! time control by its bench (OpenBench's `scale_time_control`; fishtest does the same with
//! Stockfish's bench). Two machines then play the same games in the same nodes, so a result
//! no longer depends on the machine it was measured on.
//!
//! The yardstick must not be the code under test when the question is that code's speed: a
//! faster build measured by its own `bench` would be given less time for the same games. A
//! fixed program (a peer engine's bench, or a kept reference build) is the honest yardstick.

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::harness::games::clock::control::{Control, PlayerControl};

/// Runs of the yardstick; their median is the measured speed.
pub const RUNS: usize = 3;
/// Two measurements further apart than this (relative) mean a machine that was loaded.
pub const DRIFT_WARNING: f64 = 0.10;
/// A yardstick still running after this long is stopped and the measurement refused.
const RUN_DEADLINE: Duration = Duration::from_secs(600);
/// A measured speed outside `reference × [LOWEST, HIGHEST]` is refused as absurd (a bench of
/// another program, a machine that is not running it, a unit mistaken).
const LOWEST: f64 = 0.01;
const HIGHEST: f64 = 100.0;

/// The name the header records for this binary's own `bench`.
pub const OWN_BENCH: &str = "searchlab bench";

/// What a match or tune was asked for: scale its clocks to `reference_nps` of `yardstick`.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceRequest {
    pub reference_nps: f64,
    /// The command, as given (`None`: this binary's own `bench`).
    pub yardstick: Option<String>,
}

impl ReferenceRequest {
    /// Check `--reference-nps` and `--reference-bench` as given (before any game).
    pub fn new(reference_nps: Option<f64>, bench: Option<&str>) -> Result<Option<Self>, String> {
        let Some(reference_nps) = reference_nps else {
            return match bench {
                Some(_) => Err(
                    "--reference-bench needs --reference-nps (the speed the clock is stated at)"
                        .into(),
                ),
                None => Ok(None),
            };
        };
        if !reference_nps.is_finite() || reference_nps <= 0.0 {
            return Err(format!(
                "--reference-nps is the yardstick's nodes a second on the reference machine (e.g. 2000000), got {reference_nps}"
            ));
        }
        if let Some(command) = bench {
            yardstick_words(command)?;
        }
        Ok(Some(ReferenceRequest {
            reference_nps,
            yardstick: bench.map(String::from),
        }))
    }

    /// The yardstick's name as a header records it.
    pub fn yardstick_name(&self) -> String {
        self.yardstick.clone().unwrap_or_else(|| OWN_BENCH.into())
    }
}

/// One measurement: each run's nodes a second and their median.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedReading {
    pub runs: Vec<f64>,
    pub nps: f64,
}

/// The scaling a results header records: the reference, the yardstick, what this machine
/// measured, the factor every time limit was multiplied by, and the limits as stated at the
/// reference speed (what a report names).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReferenceClock {
    pub yardstick: String,
    pub reference_nps: f64,
    pub measured: SpeedReading,
    /// reference ÷ measured: base, increment and time per move were multiplied by it.
    pub factor: f64,
    /// The match's limit at the reference speed.
    pub control: Control,
    /// Players' own limits at the reference speed, by label.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub player_controls: BTreeMap<String, PlayerControl>,
}

impl ReferenceClock {
    /// The same scaling for resuming: the measurement itself may differ.
    pub fn same_scaling(&self, other: &ReferenceClock) -> bool {
        self.yardstick == other.yardstick
            && self.reference_nps == other.reference_nps
            && self.factor == other.factor
            && self.control == other.control
            && self.player_controls == other.player_controls
    }

    /// The scaling as stated, without what a machine measured: files at one reference clock
    /// compare equal whatever their machines measured.
    pub fn stated(&self) -> ReferenceClock {
        ReferenceClock {
            measured: SpeedReading {
                runs: Vec::new(),
                nps: 0.0,
            },
            factor: 0.0,
            ..self.clone()
        }
    }

    /// "8+0.08 at 2.00 M nodes/s of ethereal-chess bench: 7.11+0.071 here, measured 2.25 M".
    pub fn describe(&self, scaled: &Control) -> String {
        format!(
            "{} at {} nodes/s of {}: {} here, measured {}",
            limit_text(&self.control),
            millions(self.reference_nps),
            self.yardstick,
            limit_text(scaled),
            millions(self.measured.nps)
        )
    }
}

/// A limit as a clock is written (`8+0.08`, `7.11+0.071`, `40/60+0.5`: the base to a
/// hundredth of a second, the increment to a millisecond), or as `Control` says it otherwise.
pub fn limit_text(control: &Control) -> String {
    let seconds = |ms: u64, digits: usize| {
        let text = format!("{:.digits$}", ms as f64 / 1000.0);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        text.to_string()
    };
    match *control {
        Control::Clock {
            moves,
            base_ms,
            inc_ms,
        } => {
            let moves = moves.map_or(String::new(), |m| format!("{m}/"));
            let inc = if inc_ms > 0 {
                format!("+{}", seconds(inc_ms, 3))
            } else {
                String::new()
            };
            format!("{moves}{}{inc}", seconds(base_ms, 2))
        }
        other => other.to_string(),
    }
}

/// `2.00 M`.
fn millions(nps: f64) -> String {
    format!("{:.2} M", nps / 1e6)
}

/// A limit multiplied by `factor`: a clock's base and increment, a time per move; a node or
/// depth budget does not depend on the machine and is left as it is.
pub fn scale(control: Control, factor: f64) -> Control {
    let times = |ms: u64| ((ms as f64 * factor).round() as u64).max(1);
    match control {
        Control::Clock {
            moves,
            base_ms,
            inc_ms,
        } => Control::Clock {
            moves,
            base_ms: times(base_ms),
            inc_ms: if inc_ms == 0 { 0 } else { times(inc_ms) },
        },
        Control::Movetime(ms) => Control::Movetime(times(ms)),
        other => other,
    }
}

/// The words of a yardstick command (`shlex`), refused when empty or unquotable.
fn yardstick_words(command: &str) -> Result<Vec<String>, String> {
    match shlex::split(command) {
        Some(words) if !words.is_empty() => Ok(words),
        _ => Err(format!(
            "--reference-bench '{command}': not a command (a program and its arguments, quoted as a shell would)"
        )),
    }
}

/// Measure this machine with the request's yardstick: `RUNS` runs, the median, each run's
/// speed printed; refused when the yardstick fails or reads absurdly against the reference.
pub fn measure(request: &ReferenceRequest) -> Result<SpeedReading, String> {
    let name = request.yardstick_name();
    let words = match &request.yardstick {
        Some(command) => yardstick_words(command)?,
        None => {
            let exe = std::env::current_exe()
                .map_err(|e| format!("{OWN_BENCH}: cannot find this binary: {e}"))?;
            vec![exe.display().to_string(), "bench".into()]
        }
    };
    let mut runs = Vec::new();
    for run in 1..=RUNS {
        let nps = run_once(&words, &name)?;
        eprintln!(
            "reference clock: {name} run {run} of {RUNS}: {} nodes/s",
            millions(nps)
        );
        runs.push(nps);
    }
    let reading = SpeedReading {
        nps: median(&runs),
        runs,
    };
    let ratio = reading.nps / request.reference_nps;
    if !(LOWEST..=HIGHEST).contains(&ratio) {
        return Err(format!(
            "reference clock: {name} measured {} nodes/s (runs {}) against a reference of {} nodes/s, a ratio of {ratio:.4}: outside {LOWEST}..{HIGHEST}, so either the reference is not this yardstick's speed or the yardstick did not run as meant; no game was played",
            reading.nps,
            reading
                .runs
                .iter()
                .map(|r| format!("{r:.0}"))
                .collect::<Vec<_>>()
                .join(", "),
            request.reference_nps
        ));
    }
    Ok(reading)
}

/// The yardstick run again after the last game (when the limits were scaled): a warning when
/// the machine's speed moved more than 10% from the header's measurement; the reading, for
/// the results file.
pub fn remeasure(
    request: Option<&ReferenceRequest>,
    reference: Option<&ReferenceClock>,
) -> Result<Option<SpeedReading>, String> {
    let (Some(request), Some(reference)) = (request, reference) else {
        return Ok(None);
    };
    let reading = measure(request)?;
    match drift_warning(
        &reference.yardstick,
        reference.measured.nps,
        reading.nps,
        "at the end",
    ) {
        Some(warning) => eprintln!("warning: {warning}"),
        None => eprintln!(
            "reference clock: {} measured {} nodes/s at the end ({} at the start)",
            reference.yardstick,
            millions(reading.nps),
            millions(reference.measured.nps)
        ),
    }
    Ok(Some(reading))
}

/// The scaling of `control` and `own` (players' own limits) by a measurement; refused for a
/// match whose limit has no time in it.
pub fn clock(
    request: &ReferenceRequest,
    measured: SpeedReading,
    control: Control,
    own: BTreeMap<String, PlayerControl>,
) -> ReferenceClock {
    ReferenceClock {
        yardstick: request.yardstick_name(),
        reference_nps: request.reference_nps,
        factor: request.reference_nps / measured.nps,
        measured,
        control,
        player_controls: own,
    }
}

/// A reference speed scales a clock: a match limited by nodes or depth has none to scale.
pub fn check_scalable(control: &Control) -> Result<(), String> {
    match control {
        Control::Clock { .. } | Control::Movetime(_) => Ok(()),
        Control::Nodes(_) | Control::Depth(_) => Err(format!(
            "--reference-nps scales a clock (--tc or --movetime), and this match is limited by {control}: nodes and depth do not depend on the machine, so there is no clock to scale"
        )),
    }
}

/// The warning when two measurements differ by more than `DRIFT_WARNING`, if they do (without
/// its `warning:` label, which each place that prints it adds).
pub fn drift_warning(name: &str, before: f64, after: f64, when: &str) -> Option<String> {
    let drift = (after - before).abs() / before;
    (drift > DRIFT_WARNING).then(|| {
        format!(
            "{name} measured {} nodes/s {when} against {} at the start ({:+.1}%, over {:.0}%): the machine was loaded or changed speed while the games were played, and the scaled clock is only as good as the measurement",
            millions(after),
            millions(before),
            (after / before - 1.0) * 100.0,
            DRIFT_WARNING * 100.0
        )
    })
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// One run of the yardstick: its nodes a second, read from what it printed.
fn run_once(words: &[String], name: &str) -> Result<f64, String> {
    let mut child = Command::new(&words[0])
        .args(&words[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("reference clock: cannot start {name} ('{}'): {e}", words[0]))?;
    // Both pipes are drained by threads, so a chatty yardstick cannot fill one and stall.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > RUN_DEADLINE => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "reference clock: {name} still running after {} s: stopped; no game was played",
                    RUN_DEADLINE.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("reference clock: {name}: {e}")),
        }
    };
    let text = format!(
        "{}\n{}",
        stdout.join().unwrap_or_default(),
        stderr.join().unwrap_or_default()
    );
    if !status.success() {
        return Err(format!(
            "reference clock: {name} failed ({status}); it printed:\n{}",
            tail(&text)
        ));
    }
    read_nps(&text).ok_or_else(|| {
        format!(
            "reference clock: {name} printed no nodes a second (looked for `N nps`, `NPS : N` or `Nodes/second : N`); it printed:\n{}",
            tail(&text)
        )
    })
}

/// The last lines of a program's output, for an error.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let from = lines.len().saturating_sub(8);
    lines[from..]
        .iter()
        .map(|l| format!("  {}", crate::harness::format::clip(l, 200)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The nodes a second a bench printed last: searchlab's and OpenBench's `N nodes M nps`,
/// Ethereal's `NPS : N`, Stockfish's `Nodes/second : N`.
pub fn read_nps(text: &str) -> Option<f64> {
    let number = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    text.lines().rev().find_map(|line| {
        let line = line.trim();
        if let Some((key, value)) = line.split_once(':') {
            let key = key.trim().to_ascii_lowercase();
            if key == "nps" || key == "nodes/second" || key == "nodes per second" {
                return number(value.split_whitespace().next()?);
            }
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        words
            .windows(2)
            .rev()
            .find(|w| w[1].eq_ignore_ascii_case("nps"))
            .and_then(|w| number(w[0]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_speed_each_bench_prints() {
        assert_eq!(
            read_nps("Bench: 82163 nodes 1490000 nps"),
            Some(1_490_000.0)
        );
        assert_eq!(
            read_nps("info depth 13 nps 1288000\nTime  : 4537ms\nNodes : 5132900\nNPS   : 1131342"),
            Some(1_131_342.0)
        );
        assert_eq!(
            read_nps("Total time (ms) : 3000\nNodes searched  : 100\nNodes/second    : 1234567"),
            Some(1_234_567.0)
        );
        assert_eq!(read_nps("nothing here\n12 nodes"), None);
        assert_eq!(read_nps("0 nodes 0 nps"), None);
    }

    #[test]
    fn scales_clocks_and_leaves_budgets() {
        let tc = Control::parse_tc("8+0.08").unwrap();
        assert_eq!(
            scale(tc, 2.0 / 2.25),
            Control::Clock {
                moves: None,
                base_ms: 7111,
                inc_ms: 71
            }
        );
        assert_eq!(scale(Control::Movetime(100), 0.5), Control::Movetime(50));
        assert_eq!(scale(Control::Nodes(2000), 0.5), Control::Nodes(2000));
        assert!(check_scalable(&Control::Nodes(2000)).is_err());
        assert!(check_scalable(&Control::Depth(8)).is_err());
    }

    #[test]
    fn bad_references_are_refused() {
        for bad in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            assert!(ReferenceRequest::new(Some(bad), None).is_err(), "{bad}");
        }
        assert!(ReferenceRequest::new(None, Some("ethereal-chess bench")).is_err());
        assert!(ReferenceRequest::new(Some(2e6), Some("'unclosed")).is_err());
        assert!(ReferenceRequest::new(Some(2e6), Some("")).is_err());
        assert_eq!(ReferenceRequest::new(None, None), Ok(None));
    }

    #[test]
    fn the_median_of_three_and_the_drift() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert!(drift_warning("x", 2e6, 2.1e6, "at the end").is_none());
        assert!(drift_warning("x", 2e6, 1.7e6, "at the end").is_some());
    }

    #[test]
    fn describes_the_clock_as_the_interface_says() {
        let request = ReferenceRequest::new(Some(2e6), Some("ethereal-chess bench"))
            .unwrap()
            .unwrap();
        let tc = Control::parse_tc("8+0.08").unwrap();
        let reading = SpeedReading {
            runs: vec![2.25e6; 3],
            nps: 2.25e6,
        };
        let clock = clock(&request, reading, tc, BTreeMap::new());
        assert_eq!(
            clock.describe(&scale(tc, clock.factor)),
            "8+0.08 at 2.00 M nodes/s of ethereal-chess bench: 7.11+0.071 here, measured 2.25 M"
        );
    }
}
