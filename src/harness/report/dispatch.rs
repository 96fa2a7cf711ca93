//! The one dispatch of `searchlab report`: every results file says what it is in its first
//! line's `type` (`header`: a run, `match`: a match, `tune`: a tune), and a reproduction is
//! its `reproduction.json`; each kind has its renderer in this room (`report/` for runs,
//! `matches/`, `tune.rs` and `reproduction.rs`, with every chart in `charts/` or
//! `matches/charts/`).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::harness::games::rating::goal::Goal;

/// What a file given to `report` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `searchlab run`'s results (header type `header`).
    Run,
    /// `searchlab match`'s results.
    Match,
    /// `searchlab tune`'s trajectory.
    Tune,
    /// `searchlab reproduce`'s `reproduction.json`.
    Reproduction,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Run => "run results",
            Kind::Match => "match results",
            Kind::Tune => "a tune file",
            Kind::Reproduction => "a reproduction",
        }
    }
}

/// The kind of `path`, from its first line (gzipped or not), or why it has none.
pub fn kind_of(path: &Path) -> Result<Kind, String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut first = String::new();
    BufReader::new(reader)
        .read_line(&mut first)
        .map_err(|e| format!("{name}: line 1: {e}"))?;
    if first.trim() == "{" {
        // A pretty-printed JSON document: a reproduction.
        return Ok(Kind::Reproduction);
    }
    let value: serde_json::Value = serde_json::from_str(first.trim())
        .map_err(|e| format!("{name}: line 1: not a results header ({e})"))?;
    match value.get("type").and_then(|t| t.as_str()) {
        Some("header") => Ok(Kind::Run),
        Some("match") => Ok(Kind::Match),
        Some("tune") => Ok(Kind::Tune),
        Some(other) => Err(format!(
            "{name}: line 1: a results file of type '{other}', which report does not render (run, match and tune results, and reproduction.json)"
        )),
        None => Err(format!("{name}: line 1: a header without a type")),
    }
}

/// What `report` was asked for besides its files.
pub struct Options<'a> {
    /// Where to write (default: the first file's folder).
    pub out: Option<PathBuf>,
    /// Run results: the variant every ratio is taken against.
    pub baseline: Option<&'a str>,
    /// Match results: goals on a player's score.
    pub goals: &'a [Goal],
}

/// Render the report of `files` (one kind) into its folder.
pub fn render(files: &[PathBuf], options: &Options) -> Result<(), String> {
    let kinds = files
        .iter()
        .map(|f| kind_of(f))
        .collect::<Result<Vec<_>, _>>()?;
    let kind = kinds[0];
    if let Some((f, k)) = files.iter().zip(&kinds).find(|(_, k)| **k != kind) {
        return Err(format!(
            "{} is {}, {} is {}: report them apart",
            files[0].display(),
            kind.name(),
            f.display(),
            k.name()
        ));
    }
    if !options.goals.is_empty() && kind != Kind::Match {
        return Err(format!(
            "--goal applies to match results; these are {}",
            kind.name()
        ));
    }
    if options.baseline.is_some() && kind != Kind::Run {
        return Err(format!(
            "--baseline applies to run results; these are {} (a match's baseline is its first player)",
            kind.name()
        ));
    }
    let dir = options.out.clone().unwrap_or_else(|| {
        files[0]
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    });
    match kind {
        Kind::Run => run(files, &dir, options.baseline),
        Kind::Match => super::matches::render(files, &dir, options.goals),
        Kind::Tune => {
            let trajectories = super::tune::Trajectories::read(files)?;
            print!("{}", super::tune::write(&trajectories, &dir)?);
            eprintln!("report: {}", dir.join("tune.md").display());
            Ok(())
        }
        Kind::Reproduction => {
            let [path] = files else {
                return Err("a reproduction is rendered from one reproduction.json".into());
            };
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let r = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            super::reproduction::write(&r, &dir)?;
            eprintln!("report: {}", dir.join("reproduction.md").display());
            Ok(())
        }
    }
}

/// A run's report.
fn run(files: &[PathBuf], dir: &Path, baseline: Option<&str>) -> Result<(), String> {
    let data = super::Dataset::read(files)?;
    let analysis = super::analyse(&data, baseline)?;
    super::write_report(&analysis, dir)?;
    print!("{}", super::summary_table(&analysis));
    eprintln!(
        "report: {} ({} records, {} variants; charts: {})",
        dir.join("report.md").display(),
        data.records.len(),
        analysis.variants.len(),
        super::CHARTS.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_committed_kind_is_told_by_its_first_line() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
        for (file, kind) in [
            ("heuristics/main/results.jsonl.gz", Kind::Run),
            ("elo/results.jsonl.gz", Kind::Match),
            ("tune/modern/tune.jsonl.gz", Kind::Tune),
            ("reproduction/reproduction.json", Kind::Reproduction),
        ] {
            assert_eq!(kind_of(&root.join(file)), Ok(kind), "{file}");
        }
        let err = kind_of(&root.join("README.md")).unwrap_err();
        assert!(
            err.contains("README.md: line 1: not a results header"),
            "{err}"
        );
        let files = [
            root.join("elo/results.jsonl.gz"),
            root.join("tune/modern/tune.jsonl.gz"),
        ];
        let options = Options {
            out: None,
            baseline: None,
            goals: &[],
        };
        let err = render(&files, &options).unwrap_err();
        assert!(
            err.contains("is match results") && err.contains("report them apart"),
            "{err}"
        );
        let goals = ["x<=60%".parse().unwrap()];
        let options = Options {
            goals: &goals,
            ..options
        };
        let err = render(&files[1..], &options).unwrap_err();
        assert_eq!(
            err,
            "--goal applies to match results; these are a tune file"
        );
    }
}
