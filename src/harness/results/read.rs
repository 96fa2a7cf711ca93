//! Reading a results file, plain or gzipped, line by line with a bound on the line length, and
//! telling what is wrong with one that is damaged or incomplete: every problem names the file
//! and the line, and says what was expected there.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::records::{FORMAT, Header, PositionRecord, RecordKey};

/// No record comes near this; a longer "line" is not a results file (`/dev/zero`, a binary).
const MAX_LINE: usize = 16 << 20;

/// A results file as read.
#[derive(Debug, Default)]
pub struct ResultsFile {
    pub header: Option<Header>,
    pub records: Vec<PositionRecord>,
    /// Bytes of the complete lines: a run resumes by cutting the file there.
    pub complete: u64,
    /// The line number of a last line cut short (a run killed while writing it).
    pub torn_line: Option<usize>,
}

impl ResultsFile {
    /// What a reader should be told about this file, besides its records: a torn last line,
    /// repeated records, searches of its plan that it does not hold. Empty for a sound and
    /// complete file.
    pub fn problems(&self, path: &Path) -> Vec<String> {
        let name = path.display();
        let mut problems = Vec::new();
        if let Some(line) = self.torn_line {
            problems.push(format!(
                "{name}:{line}: the last line is cut short (the run was stopped while writing it): that search is not counted"
            ));
        }
        let mut seen = HashSet::new();
        let repeated = self
            .records
            .iter()
            .filter(|r| !seen.insert(r.key()))
            .count();
        if repeated > 0 {
            problems.push(format!(
                "{name}: {repeated} records repeat a search already in the file (same variant, suite, line and seed; two runs wrote to it at once?): only the first of each is used"
            ));
        }
        let (missing, planned) = self.missing_of_planned();
        if !missing.is_empty() {
            problems.push(format!(
                "{name}: holds {} of the {planned} searches its run planned; missing: {}{}",
                planned - missing.len(),
                missing
                    .iter()
                    .take(5)
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
                if missing.len() > 5 {
                    format!(" and {} more", missing.len() - 5)
                } else {
                    String::new()
                }
            ));
        }
        if let Some(header) = &self.header
            && !header.missing.is_empty()
        {
            problems.push(format!(
                "{name}: merged without {} searches of its run (recorded in its header as missing)",
                header.missing.len()
            ));
        }
        problems
    }

    /// The searches the header plans that no record holds (empty when the header records no
    /// plan).
    pub fn missing(&self) -> Vec<RecordKey> {
        self.missing_of_planned().0
    }

    /// The missing searches, and how many searches the header plans.
    fn missing_of_planned(&self) -> (Vec<RecordKey>, usize) {
        let Some(planned) = self.header.as_ref().and_then(|h| h.planned()) else {
            return (Vec::new(), 0);
        };
        let count = planned.len();
        let held: HashSet<RecordKey> = self.records.iter().map(PositionRecord::key).collect();
        let missing = planned.into_iter().filter(|k| !held.contains(k)).collect();
        (missing, count)
    }
}

/// Read `path` when it exists (an absent file is empty: a run starts it). Refuses what is not
/// a results file, with the line and the reason.
pub fn read_results(path: &Path) -> Result<ResultsFile, String> {
    match File::open(path) {
        Ok(file) => read_from(path, file),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ResultsFile::default()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Read a results file that must exist and have a header (`report`, `merge`).
pub fn read_existing(path: &Path) -> Result<ResultsFile, String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!("{}: not found", path.display()));
        }
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let read = read_from(path, file)?;
    if read.header.is_none() {
        // Bytes without a single complete line (random data, a binary file) are not an
        // empty results file.
        if read.torn_line.is_some() {
            return Err(format!(
                "{}:1: {}: the file holds no complete line",
                path.display(),
                not_results(path, 1)
            ));
        }
        return Err(format!(
            "{}: empty: a results file starts with its header record",
            path.display()
        ));
    }
    Ok(read)
}

fn read_from(path: &Path, file: File) -> Result<ResultsFile, String> {
    let name = path.display();
    let mut out = ResultsFile::default();
    let mut warned = false;
    let lines = read_lines(path, file, |number, value| {
        let kind = value.get("type").and_then(|t| t.as_str());
        match (number, kind) {
            (1, Some("header")) => {
                let header: Header = serde_json::from_value(value)
                    .map_err(|e| format!("{name}:1: damaged header: {e}"))?;
                known_format(&name.to_string(), "results", header.format, FORMAT)?;
                out.header = Some(header);
            }
            (1, Some("match")) => {
                return Err(format!(
                    "{name}:1: the results of a match (`searchlab match`), not of a run: `searchlab report` reads it, `searchlab run` cannot resume it"
                ));
            }
            (1, _) => return Err(format!("{name}:1: {}", not_results(path, 1))),
            (_, Some("position")) => {
                let mut value = value;
                if out.header.as_ref().is_some_and(|h| h.format.is_none()) {
                    // Written before the counting rules of engine::stats: its counters meant
                    // other things (pooled forms, beta-side `tested`), so they are not read.
                    value["counters"] = serde_json::json!({});
                    if !warned {
                        eprintln!(
                            "warning: {name}: written before searchlab's counting rules (results format {FORMAT}); its heuristic counters are left out, nodes, times and solves are read"
                        );
                        warned = true;
                    }
                }
                let record: PositionRecord = serde_json::from_value(value)
                    .map_err(|e| format!("{name}:{number}: damaged position record: {e}"))?;
                // Names searchlab does not know come only from an engine's counter lines; in a
                // record of searchlab's own search one is a pooled or foreign key, not a guess.
                let own_search = out.header.as_ref().is_some_and(|h| {
                    h.variants
                        .iter()
                        .any(|v| v.label == record.variant && v.engine.is_none())
                });
                if let (true, Some(key)) = (own_search, record.counters.other.keys().next()) {
                    return Err(format!(
                        "{name}:{number}: damaged position record: unknown counter '{key}' in a search of searchlab's own"
                    ));
                }
                out.records.push(record);
            }
            (_, Some("header")) => {
                return Err(format!(
                    "{name}:{number}: a second header: two results files were joined by hand? (use `searchlab merge`)"
                ));
            }
            _ => {
                return Err(format!(
                    "{name}:{number}: not a searchlab record (expected \"type\":\"position\")"
                ));
            }
        }
        Ok(())
    })?;
    out.complete = lines.complete;
    out.torn_line = lines.torn_line;
    Ok(out)
}

/// How far a file of JSON lines was read.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinesRead {
    /// Bytes of the complete lines: a writer resumes by cutting the file there.
    pub complete: u64,
    /// The line number of a last line cut short (a writer killed while writing it).
    pub torn_line: Option<usize>,
}

/// Read a file of JSON lines (plain, or gzipped when it ends in `.gz`), handing each complete
/// line's value to `on_record` with its line number. Refuses blank lines, lines that are not
/// UTF-8 or not JSON, and lines longer than `MAX_LINE`, naming the file and the line. A last
/// line without its newline is not read: it is reported in `torn_line`.
pub fn read_lines(
    path: &Path,
    file: File,
    mut on_record: impl FnMut(usize, serde_json::Value) -> Result<(), String>,
) -> Result<LinesRead, String> {
    let name = path.display();
    let mut reader: Box<dyn BufRead> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(BufReader::new(flate2::read::GzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    };
    let mut out = LinesRead::default();
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        let read = bounded_line(&mut reader, &mut line)
            .map_err(|e| format!("{name}:{}: {e}", number + 1))?;
        if read == 0 {
            break;
        }
        number += 1;
        if line.last() != Some(&b'\n') {
            out.torn_line = Some(number);
            break;
        }
        let text = std::str::from_utf8(&line).map_err(|_| {
            format!(
                "{name}:{number}: not UTF-8 text: {}",
                not_results(path, number)
            )
        })?;
        if text.trim().is_empty() {
            return Err(format!(
                "{name}:{number}: blank line: a results file holds one JSON record per line"
            ));
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            if number == 1 {
                format!("{name}:1: {}", not_results(path, 1))
            } else {
                format!("{name}:{number}: damaged record: not one JSON value on the line ({e})")
            }
        })?;
        on_record(number, value)?;
        out.complete += read as u64;
    }
    Ok(out)
}

/// What the first line of a file that is not a results file should say.
fn not_results(path: &Path, line: usize) -> String {
    let hint = match path.file_name().and_then(|n| n.to_str()) {
        Some(n) if n.ends_with("reproduction.json") => {
            " (a reproduction.json is rendered with `searchlab reproduce --from`)"
        }
        Some(n) if n.ends_with(".epd") => {
            " (an EPD suite is searched with `searchlab run --suite`)"
        }
        _ => "",
    };
    if line == 1 {
        format!(
            "not a searchlab results file: expected its header record, one JSON line with \"type\":\"header\"{hint}"
        )
    } else {
        format!("not a searchlab results file{hint}")
    }
}

/// Read one line into `line` (cleared first), newline included, refusing lines longer than
/// `MAX_LINE`. Returns the bytes read (0 at the end of the file).
fn bounded_line(reader: &mut dyn BufRead, line: &mut Vec<u8>) -> std::io::Result<usize> {
    line.clear();
    let mut limited = reader.take(MAX_LINE as u64 + 1);
    let read = limited.read_until(b'\n', line)?;
    if read > MAX_LINE {
        return Err(std::io::Error::other(format!(
            "a line longer than {} MiB: not a results file",
            MAX_LINE >> 20
        )));
    }
    Ok(read)
}

/// A file written by a newer searchlab in a format this one does not know is refused, not
/// read as if it were one it knows (its fields may mean something else).
pub fn known_format(name: &str, kind: &str, format: Option<u32>, known: u32) -> Result<(), String> {
    match format {
        Some(format) if format > known => Err(format!(
            "{name}:1: {kind} format {format}, and this searchlab reads formats up to {known}: a newer searchlab wrote it; read it with that one"
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::HeuristicCounters;

    #[test]
    fn endless_input_without_a_newline_is_refused_not_read_forever() {
        let mut zeros = std::io::BufReader::new(std::io::repeat(0));
        let mut line = Vec::new();
        let err = bounded_line(&mut zeros, &mut line).unwrap_err();
        assert!(err.to_string().contains("not a results file"), "{err}");
        assert!(line.len() <= MAX_LINE + 1);
    }

    #[test]
    fn counters_of_files_written_before_the_counting_rules_are_left_out() {
        let dir = std::env::temp_dir().join(format!("searchlab-legacy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.jsonl");
        let classic = serde_json::json!({
            "label": "classic",
            "spec": "classic",
            "config": crate::engine::spec::configure("classic", None, 0).unwrap(),
        });
        let header = format!(
            r#"{{"type":"header","searchlab":"0.1.0","commit":null,"date":"2026-11-01T00:00:00Z","cores":2,"limits":{{"depth":3,"nodes":null,"movetime_ms":null,"clock":null,"infinite":false}},"variants":[{classic}],"suites":["s.epd"],"seeds":[0],"shard":null}}"#
        );
        let record = r#"{"type":"position","variant":"classic","suite":"s.epd","line":1,"id":"x","seed":0,"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","iterations":[],"counters":{"futility":{"tested":9,"fired":3,"overruled":0}},"nodes":42,"time_ms":1.0,"best_move":null,"solved":null,"points":null,"time_to_solution_ms":null,"depth_to_solution":null}"#;
        std::fs::write(&path, format!("{header}\n{record}\n")).unwrap();
        let read = read_results(&path).unwrap();
        let (header, records) = (read.header, read.records);
        assert_eq!(header.unwrap().format, None);
        assert_eq!(records[0].nodes, 42);
        assert_eq!(records[0].counters, HeuristicCounters::default().into());
        // The same record under the current format: a pooled key is an error, not a guess.
        let current = std::fs::read_to_string(&path)
            .unwrap()
            .replace(r#""shard":null}"#, r#""shard":null,"format":2}"#);
        std::fs::write(&path, current).unwrap();
        let err = read_results(&path).unwrap_err();
        assert!(
            err.contains("old.jsonl:2") && err.contains("futility"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
