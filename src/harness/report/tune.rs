//! The report of a tune (`searchlab report TUNE.jsonl [more shards]`): θ of each parameter
//! against the iterations (one chart per parameter, every trajectory drawn), the final values,
//! and the tuned values in OpenBench's SPSA format, ready for `match` or OpenBench.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use crate::harness::plot;
use crate::harness::tune::spsa::TunedParam;
use crate::harness::tune::{IterationLine, TuneHeader, read};

/// The trajectories of one tune: each file's header and iterations.
pub struct Trajectories {
    pub runs: Vec<(PathBuf, TuneHeader, Vec<IterationLine>)>,
}

impl Trajectories {
    /// Read the files of one tune (one trajectory, or shards of it: same player, parameters
    /// and schedule, different trajectories).
    pub fn read(paths: &[PathBuf]) -> Result<Trajectories, String> {
        let mut runs: Vec<(PathBuf, TuneHeader, Vec<IterationLine>)> = Vec::new();
        for path in paths {
            let file = read(path)?;
            let header = file
                .header
                .ok_or_else(|| format!("{}: empty: no tune header", path.display()))?;
            if let Some((first, head, _)) = runs.first() {
                let same = head.base == header.base
                    && head
                        .params
                        .iter()
                        .map(|p| &p.name)
                        .eq(header.params.iter().map(|p| &p.name))
                    && head.schedule == header.schedule;
                if !same {
                    return Err(format!(
                        "{} and {} are different tunes (player, parameters or schedule)",
                        first.display(),
                        path.display()
                    ));
                }
                if runs
                    .iter()
                    .any(|(_, h, _)| h.trajectory_seed == header.trajectory_seed)
                {
                    return Err(format!(
                        "{}: the same trajectory is given twice",
                        path.display()
                    ));
                }
            }
            runs.push((path.clone(), header, file.lines));
        }
        Ok(Trajectories { runs })
    }

    fn params(&self) -> &[TunedParam] {
        &self.runs[0].1.params
    }

    /// The final θ: the mean over the trajectories of each one's last θ.
    pub fn final_theta(&self) -> Vec<f64> {
        let finals: Vec<&Vec<f64>> = self
            .runs
            .iter()
            .filter_map(|(_, _, lines)| lines.last().map(|l| &l.theta_after))
            .collect();
        (0..self.params().len())
            .map(|i| {
                if finals.is_empty() {
                    self.params()[i].start
                } else {
                    finals.iter().map(|t| t[i]).sum::<f64>() / finals.len() as f64
                }
            })
            .collect()
    }
}

/// Write `tune.md`, `tuned.txt` (OpenBench's format) and one `tune_<param>.svg` per parameter
/// into `dir`; the Markdown is returned.
pub fn write(t: &Trajectories, dir: &Path) -> Result<String, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let theta = t.final_theta();
    let header = &t.runs[0].1;
    let planned = header.schedule.iterations;
    let mut md = format!(
        "# Tune of `{}`\n\nSPSA (fishtest's and OpenBench's schedule: α = {}, γ = {}, A = {}), {} iterations planned, {} game pair(s) per iteration, {}, openings {} ({}), seed {}.\n\n",
        player_name(header),
        header.schedule.alpha,
        header.schedule.gamma,
        header.schedule.big_a,
        planned,
        header.pairs,
        header.control,
        header.openings,
        header.opening_count,
        header.seed
    );
    md.push_str(
        "| trajectory | iterations | games | θ+ W-D-L | games ended by a failure | build |\n|---|---:|---:|---|---:|---|\n",
    );
    for (path, h, lines) in &t.runs {
        let (w, d, l) = lines.iter().fold((0, 0, 0), |(w, d, l), x| {
            (w + x.wins, d + x.draws, l + x.losses)
        });
        let failed: usize = lines.iter().map(|x| x.failures.len()).sum();
        md.push_str(&format!(
            "| {} | {}/{planned}{} | {} | {w}-{d}-{l} | {failed} | {} |\n",
            path.display(),
            lines.len(),
            if (lines.len() as u64) < planned {
                " (incomplete)"
            } else {
                ""
            },
            w + d + l,
            h.provenance.commit.as_deref().unwrap_or("?")
        ));
    }
    md.push_str(&format!(
        "\n## Final values{}\n\n| parameter | start | final | range | c_end | r_end | result·Δ per iteration (t) | chart |\n|---|---:|---:|---|---:|---:|---:|---|\n",
        if t.runs.len() > 1 {
            format!(" (mean of {} trajectories)", t.runs.len())
        } else {
            String::new()
        }
    ));
    for (i, p) in t.params().iter().enumerate() {
        let file = chart_file(&p.name);
        draw(t, i, &dir.join(&file))?;
        let (mean, t_stat) = signal(t, i);
        md.push_str(&format!(
            "| `{}` | {} | {:.2} | {}..{} | {} | {} | {mean:+.3} ({t_stat:+.1}) | [{file}]({file}) |\n",
            p.name, p.start, theta[i], p.min, p.max, p.c_end, p.r_end
        ));
    }
    md.push_str(SIGNAL_NOTE);
    let tuned: String = t
        .params()
        .iter()
        .zip(&theta)
        .map(|(p, v)| p.openbench_line(*v) + "\n")
        .collect();
    let verify = verify_words(t, header, &theta);
    md.push_str(&format!(
        "\n## The tuned values in OpenBench's SPSA format (`tuned.txt`)\n\n```\n{tuned}```\n\nAn integer parameter's final value is θ rounded to the nearest integer, as it is played. {verify}\n"
    ));
    crate::harness::files::write_atomic(&dir.join("tuned.txt"), tuned)?;
    crate::harness::files::write_atomic(&dir.join("tune.md"), &md)?;
    Ok(md)
}

const SIGNAL_NOTE: &str = "\nresult·Δ is an iteration's evidence that raising the parameter helps: θ+'s wins minus losses when θ+ raised it, their negative when θ+ lowered it. Its mean over the iterations, with t = mean / standard error, says whether the games told the two directions apart (the other parameters' perturbations are noise to it, as SPSA intends): |t| below 2 means they did not, and θ's movement is then a random walk, not a finding.\n";

/// Parameter `i`'s gradient signal over every iteration of every trajectory: the mean of
/// `result · Δ_i` and its t statistic (0 without spread).
fn signal(t: &Trajectories, i: usize) -> (f64, f64) {
    let values: Vec<f64> = t
        .runs
        .iter()
        .flat_map(|(_, _, lines)| lines.iter())
        .map(|l| l.result * f64::from(l.perturbation.signs[i]))
        .collect();
    let n = values.len() as f64;
    if n < 2.0 {
        return (values.first().copied().unwrap_or(0.0), 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let error = (variance / n).sqrt();
    (mean, if error > 0.0 { mean / error } else { 0.0 })
}

/// The `match` that sets the tuned values against the start, with an SPRT.
/// What to do with the tuned values: verify them in games, or nothing when every value, as it
/// is played, equals its start (the verification would be a match of two identical players).
fn verify_words(t: &Trajectories, header: &TuneHeader, theta: &[f64]) -> String {
    let unchanged = t
        .params()
        .iter()
        .zip(theta)
        .all(|(p, v)| played(p, *v) == played(p, p.start));
    if unchanged {
        "Every tuned value, as it is played, equals its start: the tuned player is the start, and there is nothing to verify in games.".to_string()
    } else {
        format!(
            "A tune's end is not evidence: verify the values in games before taking them, the tuned player against the start with an SPRT (`docs/tune.md`):\n\n```sh\n{}\n```",
            verification(header, theta)
        )
    }
}

/// A parameter's value as it is played: an integer rounded, a real to four decimals.
fn played(p: &TunedParam, v: f64) -> String {
    if p.int {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.4}")
    }
}

fn verification(h: &TuneHeader, theta: &[f64]) -> String {
    let value = played;
    let players = match &h.base.engine {
        Some(engine) => {
            let options: String = h
                .params
                .iter()
                .zip(theta)
                .map(|(p, v)| format!(" option.{}={}", p.name, value(p, *v)))
                .collect();
            format!(
                "--engine \"name=start cmd={0}\" --engine \"name=tuned cmd={0}{options}\"",
                engine.command
            )
        }
        None => {
            let items: String = h
                .params
                .iter()
                .zip(theta)
                .map(|(p, v)| format!(",{}={}", p.name, value(p, *v)))
                .collect();
            format!(
                "--variant start={0} --variant tuned={0}{items}",
                h.base.spec
            )
        }
    };
    format!(
        "searchlab match {players} \\\n  --tc 8+0.08 --sprt elo0=0,elo1=5 --concurrency 2 --openings {} --out verify.jsonl",
        h.openings
    )
}

/// The player tuned, as the report names it.
fn player_name(h: &TuneHeader) -> String {
    match &h.base.engine {
        Some(e) => e.name.clone().unwrap_or_else(|| e.command.clone()),
        None => h.base.spec.clone(),
    }
}

/// The chart file of a parameter (no dots or spaces in the stem).
pub fn chart_file(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("tune_{stem}.svg")
}

/// The y-axis of parameter `i`'s chart: the span of its trajectories and its start, with a
/// tenth of that span (at least a tenth of the tuned range) each side, inside the range. A
/// trajectory that moves a few units in a range of thousands is then seen moving.
fn axis(t: &Trajectories, i: usize) -> std::ops::Range<f64> {
    let p = &t.params()[i];
    let values = t
        .runs
        .iter()
        .flat_map(|(_, _, lines)| lines.iter().map(move |l| l.theta_after[i]))
        .chain([p.start]);
    let (low, high) = values.fold((p.start, p.start), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = ((high - low) / 10.0).max((p.max - p.min) / 10.0);
    (low - pad).max(p.min)..(high + pad).min(p.max)
}

/// θ of parameter `i` against the iteration, one line per trajectory, the start dashed.
fn draw(t: &Trajectories, i: usize, path: &Path) -> Result<(), String> {
    let p = &t.params()[i];
    let planned = t.runs[0].1.schedule.iterations.max(1);
    plot::svg(
        path,
        plot::SIZE,
        &format!("SPSA: {}", p.name),
        &format!(
            "θ after each iteration · {} · start {} · range {}..{}",
            match t.runs.len() {
                1 => "1 trajectory".to_string(),
                n => format!("{n} trajectories"),
            },
            p.start,
            p.min,
            p.max
        ),
        |area| {
            let fail = plot::error(path);
            let mut chart = ChartBuilder::on(area)
                .margin(20)
                .x_label_area_size(45)
                .y_label_area_size(70)
                .build_cartesian_2d(0f64..planned as f64, axis(t, i))
                .map_err(&fail)?;
            chart
                .configure_mesh()
                .x_desc("iteration")
                // Whole iterations: no more labels than iterations, none with a fraction.
                .x_labels((planned as usize + 1).min(11))
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_desc(p.name.as_str())
                .label_style((plot::FONT, 14))
                .axis_desc_style((plot::FONT, 16))
                .draw()
                .map_err(&fail)?;
            chart
                .draw_series(DashedLineSeries::new(
                    [(0.0, p.start), (planned as f64, p.start)],
                    6,
                    4,
                    RGBColor(150, 150, 150).stroke_width(1),
                ))
                .map_err(&fail)?;
            for (n, (_, _, lines)) in t.runs.iter().enumerate() {
                let points: Vec<(f64, f64)> = std::iter::once((0.0, p.start))
                    .chain(lines.iter().map(|l| (l.k as f64, l.theta_after[i])))
                    .collect();
                chart
                    .draw_series(LineSeries::new(points, plot::colour(n).stroke_width(2)))
                    .map_err(&fail)?;
            }
            Ok(())
        },
    )
}
