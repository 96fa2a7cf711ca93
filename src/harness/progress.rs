//! Progress of long work wherever it runs. On a terminal a bar redraws itself on stderr; without
//! one (output to a file or a pipe: a cluster job, `nohup`, CI) a bar shows nothing, so a plain
//! status line is printed on stdout instead, every `Every` of work: how far, the time elapsed,
//! the time left at the current rate, and the work's own message (fastchess prints its results
//! block the same way, every `-ratinginterval` games). `match` has its own line
//! (`games::playing::play`), with the SPRT in it.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How often a plain status line is printed without a terminal.
#[derive(Clone, Copy, Debug)]
pub enum Every {
    /// Once this much time has passed since the last line.
    Interval(Duration),
    /// Each time the count passes a multiple of this (0: never).
    Count(u64),
}

/// A minute: the plain line's interval for `train`.
pub const MINUTE: Every = Every::Interval(Duration::from_secs(60));

/// `--status-interval SECONDS` (0: no line).
pub fn every_seconds(seconds: f64) -> Result<Every, String> {
    match seconds {
        0.0 => Ok(Every::Count(0)),
        s if s.is_finite() && s > 0.0 && s <= 1e7 => {
            Ok(Every::Interval(Duration::from_secs_f64(s)))
        }
        s => Err(format!("--status-interval is seconds, 0 or more, got {s}")),
    }
}

struct Plain {
    every: Every,
    started: Instant,
    last: Instant,
    /// The position when this process started (resumed work is not this process's rate).
    start_position: u64,
    message: String,
}

/// A progress display over `total` units of work.
pub struct ProgressDisplay {
    bar: ProgressBar,
    what: String,
    unit: String,
    plain: Option<Mutex<Plain>>,
}

impl ProgressDisplay {
    /// ProgressDisplay of `what` over `total` `unit`s, from `position` on; nothing at all when `show`
    /// is false.
    pub fn new(
        show: bool,
        what: &str,
        total: u64,
        position: u64,
        unit: &str,
        every: Every,
    ) -> Self {
        let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
        let bar = if show && terminal {
            ProgressBar::new(total)
        } else {
            ProgressBar::hidden()
        };
        bar.set_length(total);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{bar:30}} {{pos}}/{{len}} {unit} {{elapsed_precise}} (eta {{eta}})  {{msg}}"
            ))
            .expect("valid template"),
        );
        bar.set_position(position);
        let now = Instant::now();
        ProgressDisplay {
            bar,
            what: what.to_string(),
            unit: unit.to_string(),
            plain: (show && !terminal).then(|| {
                Mutex::new(Plain {
                    every,
                    started: now,
                    last: now,
                    start_position: position,
                    message: String::new(),
                })
            }),
        }
    }

    /// The message shown after the counts (the bar's, and the plain line's).
    pub fn set_message(&self, message: String) {
        if let Some(plain) = &self.plain {
            plain.lock().expect("progress").message = message.clone();
        }
        self.bar.set_message(message);
    }

    /// `n` more units done.
    pub fn inc(&self, n: u64) {
        self.set_position(self.bar.position() + n);
    }

    /// `position` units done.
    pub fn set_position(&self, position: u64) {
        let before = self.bar.position();
        self.bar.set_position(position);
        let Some(plain) = &self.plain else {
            return;
        };
        let mut plain = plain.lock().expect("progress");
        let due = match plain.every {
            Every::Interval(interval) => plain.last.elapsed() >= interval,
            Every::Count(0) => false,
            Every::Count(n) => position / n != before / n,
        };
        if due {
            plain.last = Instant::now();
            println!("{}", self.line(&plain, position));
        }
    }

    /// Print a line above the bar (on stderr), the bar kept.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }

    /// The work ended: the bar is cleared.
    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
    }

    fn line(&self, plain: &Plain, position: u64) -> String {
        let total = self.bar.length().unwrap_or(position).max(1);
        let elapsed = plain.started.elapsed();
        let done_here = position.saturating_sub(plain.start_position);
        let left = if done_here == 0 {
            "time left unknown yet".to_string()
        } else {
            let per_unit = elapsed.as_secs_f64() / done_here as f64;
            let left = per_unit * total.saturating_sub(position) as f64;
            format!(
                "{} left at this rate",
                humantime::format_duration(Duration::from_secs(left as u64))
            )
        };
        let message = if plain.message.is_empty() {
            String::new()
        } else {
            format!("  {}", plain.message)
        };
        format!(
            "{}: {position}/{total} {} ({:.0}%), {} elapsed, {left}{message}",
            self.what,
            self.unit,
            100.0 * position as f64 / total as f64,
            humantime::format_duration(Duration::from_secs(elapsed.as_secs())),
        )
    }
}
