//! `searchlab report`: everything a report says is computed here, from results files only
//! (never by searching), into one serialisable [`Analysis`]. The Markdown, the CSV tables and
//! the charts are all drawn from that one value, and `analysis.json` is written beside them, so
//! every number in the Markdown can be found in the JSON.

mod analysis;
mod audit;
pub mod charts;
mod designs;
pub mod dispatch;
pub mod index;
mod markdown;
pub mod matches;
mod measures;
pub mod reproduction;
mod tables;
pub mod tune;
mod verdicts;

pub use analysis::*;
pub use audit::{AuditLine, SignalHits, VariantAudit, depth_name};
pub use charts::CHARTS;
pub use designs::sweep_file;
pub use markdown::{markdown, summary_table, terminal_summary};
pub use tables::write_csv;

use super::compare::{self, PairedRatio};
use super::design::Design;
use super::external::EngineSpec;
use super::results::{Header, PositionRecord, RecordKey, read_existing};
use measures::{
    across_seeds, counters, cutoff_order, depth_curve, ebf_by_depth, ebfs, first_move_rates,
    first_seed_solved, pooled_first_move_rate, solution_times, solve_difference, solve_rate,
    solved_by_depth,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The records of one or more results files.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Files read, in order.
    pub files: Vec<PathBuf>,
    /// Their headers.
    pub headers: Vec<Header>,
    /// Variant labels in first-seen order, with their SPEC.
    pub variants: Vec<(String, String)>,
    /// Every position record.
    pub records: Vec<PositionRecord>,
    /// How the variants were made (`--ablation pairs`, `--sweep`), when a design made them.
    pub design: Option<Design>,
    /// What the files lack of their runs: shards not given, planned searches missing.
    pub incomplete: Vec<String>,
}

/// The shards of a sharded run that no file given holds, as one sentence per run.
fn missing_shards(headers: &[Header]) -> Vec<String> {
    let mut by_count: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for header in headers {
        if let Some(shard) = header.shard {
            by_count.entry(shard.count).or_default().push(shard.index);
        }
    }
    by_count
        .into_iter()
        .filter_map(|(count, given)| {
            let missing: Vec<String> = (1..=count)
                .filter(|i| !given.contains(i))
                .map(|i| format!("{i}/{count}"))
                .collect();
            (!missing.is_empty()).then(|| {
                format!(
                    "{} of {count} shards given: shard {} missing, so the report covers part of the run (merge every shard, or report them all)",
                    count - missing.len(),
                    missing.join(", ")
                )
            })
        })
        .collect()
}

/// The records of a variant the header names; the others are left out with a warning (a
/// record of an unknown variant has no SPEC to be read under).
fn known_variants(
    header: &Header,
    records: Vec<PositionRecord>,
    path: &Path,
) -> Vec<PositionRecord> {
    let (known, unknown): (Vec<_>, Vec<_>) = records
        .into_iter()
        .partition(|r| header.variants.iter().any(|v| v.label == r.variant));
    if let Some(first) = unknown.first() {
        eprintln!(
            "warning: {}: {} records of variants its header does not name (the first: '{}' at {}:{}) are left out",
            path.display(),
            unknown.len(),
            first.variant,
            first.suite,
            first.line
        );
    }
    known
}

impl Dataset {
    /// Read results files. A variant label may appear in several files only with the same SPEC.
    pub fn read(paths: &[PathBuf]) -> Result<Dataset, String> {
        Self::read_with(paths, true)
    }

    /// Read the file of one shard as its own share of a run (a task's summary of what it
    /// searched): the other shards are not missing from it, and no warning says they are.
    pub fn read_share(path: &Path) -> Result<Dataset, String> {
        Self::read_with(&[path.to_path_buf()], false)
    }

    fn read_with(paths: &[PathBuf], whole: bool) -> Result<Dataset, String> {
        let mut data = Dataset::default();
        let mut seen_in: BTreeMap<String, PathBuf> = BTreeMap::new();
        let mut seen: std::collections::HashSet<RecordKey> = std::collections::HashSet::new();
        for path in paths {
            data.refuse_twice(path)?;
            let read = read_existing(path)?;
            data.note_problems(read.problems(path));
            let header = read.header.expect("read_existing checks the header");
            let records = known_variants(&header, read.records, path);
            data.refuse_unlike(&header, path)?;
            data.join_design(&header, path)?;
            data.join_variants(&header, path, &mut seen_in)?;
            data.join_records(records, path, &mut seen);
            data.headers.push(header);
            data.files.push(path.clone());
        }
        if data.records.is_empty() {
            return Err("the results files hold no position records".into());
        }
        if whole {
            let missing = missing_shards(&data.headers);
            data.note_problems(missing);
        }
        Ok(data)
    }

    /// A file given twice (under any name) would count its records twice.
    fn refuse_twice(&self, path: &PathBuf) -> Result<(), String> {
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        match self
            .files
            .iter()
            .find(|f| std::fs::canonicalize(f).unwrap_or_else(|_| (*f).clone()) == canonical)
        {
            Some(twice) => Err(format!(
                "{} is given twice (also as {}): its records would count twice",
                path.display(),
                twice.display()
            )),
            None => Ok(()),
        }
    }

    /// Files run under other limits or on other suites than the first cannot be joined.
    fn refuse_unlike(&self, header: &Header, path: &Path) -> Result<(), String> {
        let Some(first) = self.headers.first() else {
            return Ok(());
        };
        let differs = |what: &str, mine: String, theirs: String| {
            format!(
                "{} and {} were run with different {what} ({mine} against {theirs}): their numbers cannot be joined in one report",
                path.display(),
                self.files[0].display()
            )
        };
        if header.limits != first.limits {
            return Err(differs(
                "limits",
                describe_limits(&header.limits),
                describe_limits(&first.limits),
            ));
        }
        if header.suites != first.suites {
            return Err(differs(
                "suites",
                header.suites.join(", "),
                first.suites.join(", "),
            ));
        }
        Ok(())
    }

    /// The file's variants join the report's; a label already seen must name the same SPEC
    /// (`seen_in`: the file each label was first seen in).
    fn join_variants(
        &mut self,
        header: &Header,
        path: &Path,
        seen_in: &mut BTreeMap<String, PathBuf>,
    ) -> Result<(), String> {
        for variant in &header.variants {
            match self
                .variants
                .iter()
                .find(|(label, _)| *label == variant.label)
            {
                Some((_, spec)) if *spec != variant.described() => {
                    return Err(format!(
                        "{}: variant '{}' is '{}' here but '{}' in {}",
                        path.display(),
                        variant.label,
                        variant.described(),
                        spec,
                        seen_in[&variant.label].display()
                    ));
                }
                Some(_) => {}
                None => {
                    self.variants
                        .push((variant.label.clone(), variant.described()));
                    seen_in.insert(variant.label.clone(), path.to_path_buf());
                }
            }
        }
        Ok(())
    }

    /// The file's records join the report's. A search counted twice would double its nodes
    /// and narrow every interval: the first record of each (variant, suite, line, seed) is
    /// kept (`seen`: the keys so far); `problems` warned of repeats within a file.
    fn join_records(
        &mut self,
        records: Vec<PositionRecord>,
        path: &Path,
        seen: &mut std::collections::HashSet<RecordKey>,
    ) {
        let before = self.records.len();
        let within: std::collections::HashSet<RecordKey> =
            records.iter().map(PositionRecord::key).collect();
        for record in records {
            if seen.insert(record.key()) {
                self.records.push(record);
            }
        }
        let repeated_elsewhere = within.len() - (self.records.len() - before);
        if repeated_elsewhere > 0 {
            eprintln!(
                "warning: {}: {repeated_elsewhere} searches are also in an earlier file; the earlier record is used",
                path.display()
            );
        }
    }

    /// Warn of each problem; those that leave the run incomplete (missing searches, shards
    /// not given) are also said at the report's top.
    fn note_problems(&mut self, problems: Vec<String>) {
        for problem in problems {
            eprintln!("warning: {problem}");
            if problem.contains("missing") {
                self.incomplete.push(problem);
            }
        }
    }

    /// Take the design of a file's header; a design other than the one already read is
    /// refused (one report reads one design).
    fn join_design(&mut self, header: &Header, path: &Path) -> Result<(), String> {
        let Some(design) = &header.design else {
            return Ok(());
        };
        match &self.design {
            Some(mine) if mine != design => Err(format!(
                "{} was made by another design ({} over '{}') than {}: one report reads one design",
                path.display(),
                design_kind(design),
                design.base(),
                self.files[0].display()
            )),
            _ => {
                self.design = Some(design.clone());
                Ok(())
            }
        }
    }

    /// The external engine a variant ran (`None`: searchlab's own search).
    /// The records of variant `label`.
    fn records_of(&self, label: &str) -> Vec<&PositionRecord> {
        self.records.iter().filter(|r| r.variant == label).collect()
    }

    pub fn engine_of(&self, label: &str) -> Option<&EngineSpec> {
        self.headers
            .iter()
            .flat_map(|h| &h.variants)
            .find(|v| v.label == label)
            .and_then(|v| v.engine.as_ref())
    }
}

/// Whether two players count nodes alike, so that their node ratio means something: both
/// searchlab's own search, or engines of one program: the same command, or the same name
/// (the first word of `id name`: two builds of one engine, `Dev 1.2` and `Dev 1.3-lmr`). A
/// node of another program is another unit.
fn same_engine(a: Option<&EngineSpec>, b: Option<&EngineSpec>) -> bool {
    let family = |e: &EngineSpec| {
        e.name
            .as_deref()
            .and_then(|n| n.split_whitespace().next())
            .map(str::to_ascii_lowercase)
    };
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.command == b.command || family(a).is_some_and(|f| Some(f) == family(b))
        }
        _ => false,
    }
}

fn design_kind(design: &Design) -> &'static str {
    match design {
        Design::Pairs { .. } => "pairs",
        Design::Sweep { .. } => "a sweep",
    }
}

/// Per position, the geometric mean over seeds of `value`.
fn per_position(
    records: &[&PositionRecord],
    value: impl Fn(&PositionRecord) -> f64,
) -> BTreeMap<PositionKey, f64> {
    let mut logs: BTreeMap<PositionKey, Vec<f64>> = BTreeMap::new();
    for r in records.iter().filter(|r| r.failure.is_none()) {
        logs.entry(position_key(r))
            .or_default()
            .push(value(r).max(1e-3).ln());
    }
    logs.into_iter()
        .map(|(k, v)| (k, (v.iter().sum::<f64>() / v.len() as f64).exp()))
        .collect()
}

fn paired(
    mine: &BTreeMap<PositionKey, f64>,
    base: &BTreeMap<PositionKey, f64>,
) -> Option<PairedRatio> {
    let (a, b): (Vec<f64>, Vec<f64>) = mine
        .iter()
        .filter_map(|(k, v)| base.get(k).map(|b| (*v, *b)))
        .unzip();
    compare::paired_ratio(&a, &b)
}

/// Analyse `data` against `baseline` (the first variant when `None`).
pub fn analyse(data: &Dataset, baseline: Option<&str>) -> Result<Analysis, String> {
    let baseline = baseline_label(data, baseline)?;
    let base_records = data.records_of(&baseline);
    let base = Baseline {
        label: &baseline,
        nodes: per_position(&base_records, |r| r.nodes as f64),
        time: per_position(&base_records, |r| r.time_ms),
        solved: first_seed_solved(&base_records),
        engine: data.engine_of(&baseline),
    };
    let variants = data
        .variants
        .iter()
        .map(|(label, spec)| variant_analysis(data, label, spec, &base))
        .collect::<Vec<VariantAnalysis>>();
    let (audits, interactions, sweeps) = analyses(data, &variants)?;
    Ok(Analysis {
        meta: meta(data),
        baseline,
        variants,
        methods: methods(),
        audits,
        interactions,
        sweeps,
    })
}

/// The variant every ratio and paired test is taken against: the one asked for, else the
/// first.
fn baseline_label(data: &Dataset, asked: Option<&str>) -> Result<String, String> {
    let Some(label) = asked else {
        return Ok(data.variants[0].0.clone());
    };
    if !data.variants.iter().any(|(l, _)| l == label) {
        return Err(format!(
            "baseline '{label}' is not a variant of these results (variants: {})",
            data.variants
                .iter()
                .map(|(l, _)| l.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(label.to_string())
}

/// What every variant is compared with: the baseline's per-position nodes, times and solves,
/// and its engine.
struct Baseline<'a> {
    label: &'a str,
    nodes: BTreeMap<PositionKey, f64>,
    time: BTreeMap<PositionKey, f64>,
    solved: BTreeMap<PositionKey, bool>,
    engine: Option<&'a EngineSpec>,
}

/// One variant's measures, its ratios and tests against `base`.
fn variant_analysis(data: &Dataset, label: &str, spec: &str, base: &Baseline) -> VariantAnalysis {
    let mine = data.records_of(label);
    let is_base = label == base.label;
    let engine = data.engine_of(label);
    let other_engine = !same_engine(engine, base.engine);
    let nodes = per_position(&mine, |r| r.nodes as f64);
    let times = per_position(&mine, |r| r.time_ms);
    let both = nodes.keys().filter(|k| base.nodes.contains_key(*k)).count();
    if !is_base && both < base.nodes.len().max(nodes.len()) {
        eprintln!(
            "warning: variant '{label}' has {} positions and '{}' {}: ratios and tests use the {both} positions both searched",
            nodes.len(),
            base.label,
            base.nodes.len()
        );
    }
    VariantAnalysis {
        label: label.to_string(),
        spec: spec.to_string(),
        records: mine.len(),
        positions: nodes.len(),
        failures: mine.iter().filter(|r| r.failure.is_some()).count(),
        solved: solve_rate(&mine),
        solve_difference: (!is_base)
            .then(|| solve_difference(&first_seed_solved(&mine), &base.solved))
            .flatten(),
        points: mine
            .iter()
            .any(|r| r.points.is_some())
            .then(|| mine.iter().filter_map(|r| r.points).map(u64::from).sum()),
        // Saturating: an engine that reports u64::MAX nodes must not wrap the sum to a small
        // number (the report says "saturated" at u64::MAX, as the counter table does).
        total_nodes: mine
            .iter()
            .fold(0, |sum: u64, r| sum.saturating_add(r.nodes)),
        nodes: compare::geometric_mean(&nodes.values().copied().collect::<Vec<_>>()),
        engine: engine.map(|e| e.name.clone().unwrap_or_else(|| e.command.clone())),
        other_engine,
        node_ratio: (!is_base && !other_engine)
            .then(|| paired(&nodes, &base.nodes))
            .flatten(),
        time_ratio: (!is_base).then(|| paired(&times, &base.time)).flatten(),
        ebf: compare::geometric_mean(&ebfs(&mine)),
        ebf_by_depth: ebf_by_depth(&mine),
        first_move_cutoff_rate: pooled_first_move_rate(&mine),
        mean_cutoff_index: cutoff_order(&mine, false).1,
        quiescence_first_move_cutoff_rate: cutoff_order(&mine, true).0,
        quiescence_mean_cutoff_index: cutoff_order(&mine, true).1,
        first_move_cutoff_rate_mean: compare::mean_interval(&first_move_rates(&mine)),
        time_s: mine.iter().map(|r| r.time_ms).sum::<f64>() / 1000.0,
        depth_curve: depth_curve(&mine),
        solved_by_depth: solved_by_depth(&mine),
        solution_times_ms: solution_times(&mine),
        counters: counters(&mine),
        across_seeds: across_seeds(&mine),
    }
}

/// The audits of the audited variants, and the reading of the design (interaction matrix or
/// sweep curves) when a design made the variants.
#[allow(clippy::type_complexity)]
fn analyses(
    data: &Dataset,
    variants: &[VariantAnalysis],
) -> Result<(Vec<VariantAudit>, Option<Interactions>, Vec<SweepCurve>), String> {
    let of = |label: &str| -> Vec<&PositionRecord> {
        data.records.iter().filter(|r| r.variant == label).collect()
    };
    let mut audits = Vec::new();
    for (label, _) in &data.variants {
        if let Some(audit) = audit::variant_audit(label, &of(label))? {
            audits.push(audit);
        }
    }
    let Some(design) = &data.design else {
        return Ok((audits, None, Vec::new()));
    };
    let nodes = data
        .variants
        .iter()
        .map(|(l, _)| (l.clone(), per_position(&of(l), |r| r.nodes as f64)))
        .collect();
    let solved = data
        .variants
        .iter()
        .map(|(l, _)| (l.clone(), first_seed_solved(&of(l))))
        .collect();
    let per = designs::PerPosition {
        nodes: &nodes,
        solved: &solved,
    };
    Ok((
        audits,
        designs::interactions(design, &per),
        designs::sweeps(design, variants),
    ))
}

fn meta(data: &Dataset) -> Meta {
    let mut suites: Vec<String> = Vec::new();
    let mut limits: Vec<String> = Vec::new();
    let mut dates: Vec<String> = Vec::new();
    let mut commits: Vec<String> = Vec::new();
    let mut seeds: Vec<u64> = Vec::new();
    let push = |list: &mut Vec<String>, item: String| {
        if !list.contains(&item) {
            list.push(item);
        }
    };
    for h in &data.headers {
        for s in &h.suites {
            let name = Path::new(s)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| s.clone());
            push(&mut suites, name);
        }
        push(&mut limits, describe_limits(&h.limits));
        push(&mut dates, h.provenance.date.chars().take(10).collect());
        if let Some(c) = &h.provenance.commit {
            push(&mut commits, c.clone());
        }
        for s in &h.seeds {
            if !seeds.contains(s) {
                seeds.push(*s);
            }
        }
    }
    Meta {
        suites,
        limit: limits.join(" / "),
        date: dates.join(", "),
        commits,
        files: data.files.iter().map(|f| f.display().to_string()).collect(),
        seeds,
        incomplete: data.incomplete.clone(),
    }
}

fn methods() -> BTreeMap<String, String> {
    [
        ("solved", compare::WILSON),
        ("solve difference", compare::MCNEMAR),
        ("node and time ratios", compare::PAIRED_T_LOG),
        ("ratio p-value", compare::WILCOXON),
        ("across seeds", compare::T_INTERVAL),
        ("geometric means and EBF", "t interval on logs"),
        (
            "audit error rates and signal confirmation rates",
            compare::CLUSTERED,
        ),
        (
            "synergy",
            "ratio(A+B) / (ratio(A) · ratio(B)) per position: geometric mean with the t interval of the logs, Wilcoxon signed-rank p",
        ),
        (
            "EBF",
            "(N_d / N_(d-2))^(1/2) per position, N_d the nodes of iteration d: stable across the parity of d, unlike N_d / N_(d-1)",
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// Write the whole report into `dir`: `report.md`, `analysis.json`, the CSV tables and the
/// charts.
pub fn write_report(analysis: &Analysis, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let json = serde_json::to_string_pretty(analysis).map_err(|e| e.to_string())?;
    let write = |name: &str, text: &str| crate::harness::files::write_atomic(&dir.join(name), text);
    write("analysis.json", &(json + "\n"))?;
    let verdicts = verdicts::of(analysis);
    let mut text = markdown(analysis);
    if !verdicts.is_empty() {
        text.push('\n');
        text.push_str(&crate::harness::verdicts::markdown(&verdicts));
        crate::harness::verdicts::write(dir, &verdicts)?;
    }
    write("report.md", &text)?;
    write_csv(analysis, dir)?;
    charts::draw_all(analysis, dir)
}

#[cfg(test)]
mod tests;
