//! The counters protocol (`docs/protocol.md`): before `bestmove`, an engine prints one line per
//! counter of its own decisions, cumulative over that `go`,
//!
//! `info string counter NAME tested T fired F [overruled O]`
//!
//! NAME is one word; T, F and O are whole numbers with `fired <= tested` and
//! `overruled <= fired` (the meanings of `stats::DEFINITION`). Kept inside `info string` so
//! that GUIs show or ignore it. searchlab's engine writes these lines when its `CounterInfo`
//! option is on; `run` reads them from any engine into the record's counters. The protocol is
//! neither the engine's front end nor the harness's client: both read it here.

use crate::engine::stats::Counters;

/// The words that open a counter line.
const PREFIX: &str = "info string counter ";

/// The line of one counter.
pub fn line(name: &str, counts: Counters) -> String {
    format!(
        "{PREFIX}{name} tested {} fired {} overruled {}",
        counts.tested, counts.fired, counts.overruled
    )
}

/// What a counter line says: `None` when the line is not one; an error naming what is wrong
/// when it opens like one but breaks the grammar.
pub fn parse(line: &str) -> Option<Result<(String, Counters), String>> {
    let rest = line.trim().strip_prefix(PREFIX)?;
    Some(read(rest).map_err(|why| format!("bad counter line '{}': {why}", line.trim())))
}

fn read(rest: &str) -> Result<(String, Counters), String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let name = words.first().ok_or("no NAME")?.to_string();
    let mut counts = Counters::default();
    let mut seen = [false; 3];
    let mut pairs = words[1..].chunks(2);
    for pair in pairs.by_ref() {
        let [key, value] = pair else {
            return Err(format!("'{}' has no value", pair[0]));
        };
        let value: u64 = value
            .parse()
            .map_err(|_| format!("{key} '{value}' is not a whole number"))?;
        let (slot, at) = match *key {
            "tested" => (&mut counts.tested, 0),
            "fired" => (&mut counts.fired, 1),
            "overruled" => (&mut counts.overruled, 2),
            other => return Err(format!("unknown word '{other}' (tested, fired, overruled)")),
        };
        if std::mem::replace(&mut seen[at], true) {
            return Err(format!("{key} given twice"));
        }
        *slot = value;
    }
    if !seen[0] || !seen[1] {
        return Err("tested and fired are required".into());
    }
    if counts.fired > counts.tested || counts.overruled > counts.fired {
        return Err("needs overruled <= fired <= tested".into());
    }
    Ok((name, counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back_and_bad_ones_say_why() {
        let counts = Counters {
            tested: 120,
            fired: 30,
            overruled: 2,
        };
        let text = line("futility.frontier", counts);
        assert_eq!(
            text,
            "info string counter futility.frontier tested 120 fired 30 overruled 2"
        );
        assert_eq!(parse(&text), Some(Ok(("futility.frontier".into(), counts))));
        let short = parse("info string counter lmp tested 5 fired 1")
            .unwrap()
            .unwrap();
        assert_eq!(short.1.overruled, 0);
        assert_eq!(parse("info string hello"), None);
        assert_eq!(parse("info depth 3 pv e2e4"), None);
        for (bad, says) in [
            ("info string counter x tested 1", "required"),
            (
                "info string counter x tested 1 fired 2",
                "overruled <= fired <= tested",
            ),
            (
                "info string counter x tested one fired 0",
                "not a whole number",
            ),
            (
                "info string counter x tested 1 fired 0 skipped 3",
                "unknown word 'skipped'",
            ),
            ("info string counter x tested 1 fired 0 tested 2", "twice"),
            ("info string counter x tested", "no value"),
        ] {
            let err = parse(bad).unwrap().unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }
}
