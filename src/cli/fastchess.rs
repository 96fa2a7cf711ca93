//! `searchlab match -- ARGS…`: a fastchess (or cutechess-cli) command line as its author types
//! it, translated into `searchlab match`'s own options. The equivalent command is printed
//! first, so that the translation can be read and kept; what has no counterpart here is
//! refused by name, never dropped.
//!
//! The options follow fastchess's documentation (`-engine`, `-each`, `-rounds`, `-games`,
//! `-repeat`, `-openings`, `-concurrency`, `-sprt`, `-pgnout`, `-log`, `-draw`, `-resign`,
//! `-maxmoves`, `-recover`, `-srand`, `-randomseed`, `-ratinginterval`, `-tournament`,
//! `-variant`, `-output`). Two differences of meaning are stated when they arise: searchlab
//! plays every opening twice with the colours reversed (fastchess's `-repeat`), so the games
//! of a pairing are `rounds × games` and must be even; and it plays gauntlets (the first
//! engine against each other), so more than two engines need `-tournament gauntlet`.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::harness::format::for_shell;

/// The translated arguments (after `match`) and what the translation should say.
#[derive(Debug, Default, PartialEq)]
pub struct Translation {
    pub args: Vec<String>,
    pub notes: Vec<String>,
    /// Each `-engine`'s `name=` (else its command's file name), in order.
    pub names: Vec<String>,
}

/// The options a fastchess line may hold here, for the refusal of any other.
const SUPPORTED: &str = "-engine, -each, -rounds, -games, -repeat, -openings, -concurrency, \
     -sprt, -pgnout, -epdout, -log, -draw, -resign, -maxmoves, -recover, -srand, -randomseed, \
     -ratinginterval, -tournament, -variant, -output, -report, -autosaveinterval, -use-affinity";

/// The engine keys passed on as they are (`plan::engine_args` reads them).
const ENGINE_KEYS: &[&str] = &[
    "name",
    "cmd",
    "args",
    "dir",
    "tc",
    "st",
    "nodes",
    "depth",
    "timemargin",
    "timeout",
];

/// One option and the words after it.
struct Option_ {
    name: String,
    values: Vec<String>,
}

/// A word opens an option when it is `-name` or `--name` (a letter first, no `=`).
fn option_name(word: &str) -> Option<&str> {
    let name = word.strip_prefix("--").or_else(|| word.strip_prefix('-'))?;
    (name.starts_with(|c: char| c.is_ascii_alphabetic()) && !name.contains('=')).then_some(name)
}

fn options(words: &[String]) -> Result<Vec<Option_>, String> {
    let mut out: Vec<Option_> = Vec::new();
    for word in words {
        match (option_name(word), out.last_mut()) {
            (Some(name), _) => out.push(Option_ {
                name: name.to_string(),
                values: Vec::new(),
            }),
            (None, Some(current)) => current.values.push(word.clone()),
            (None, None) => {
                return Err(format!(
                    "'{word}': a fastchess command line starts with an option ({SUPPORTED})"
                ));
            }
        }
    }
    Ok(out)
}

/// `KEY=VALUE` pairs of an option's words.
fn key_values(option: &str, values: &[String]) -> Result<Vec<(String, String)>, String> {
    values
        .iter()
        .map(|word| {
            word.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("-{option}: '{word}' is not KEY=VALUE"))
        })
        .collect()
}

/// The one value of an option such as `-concurrency 2`.
fn single<'a>(option: &str, values: &'a [String]) -> Result<&'a str, String> {
    match values {
        [value] => Ok(value),
        _ => Err(format!("-{option} takes one value, got {}", values.len())),
    }
}

fn number(option: &str, value: &str) -> Result<u64, String> {
    value
        .parse()
        .map_err(|_| format!("-{option}: '{value}' is not a whole number"))
}

fn add_flag(args: &mut Vec<String>, flag: &str) {
    args.push(flag.to_string());
}

/// A keyed word as `plan::engine_args` reads it, quoted as a shell quotes it.
fn keyed(key: &str, value: &str) -> String {
    let word = format!("{key}={value}");
    // Arguments come from the operating system, which cannot pass a NUL byte.
    for_shell(&word).unwrap_or(word)
}

/// An `-engine` or `-each` description in searchlab's keyed form.
fn player(option: &str, values: &[String], each: bool) -> Result<String, String> {
    let mut words = Vec::new();
    for (key, value) in key_values(option, values)? {
        match key.as_str() {
            "proto" if value == "uci" => {}
            "proto" => {
                return Err(format!(
                    "-{option} proto={value}: searchlab speaks UCI only"
                ));
            }
            "restart" if value == "on" || value == "off" => words.push(keyed("restart", &value)),
            "restart" => return Err(format!("-{option} restart={value}: on or off")),
            "plies" => words.push(keyed("depth", &value)),
            "name" | "cmd" | "args" | "dir" if each => {
                return Err(format!("-each {key}=: give it in each -engine"));
            }
            _ if key.starts_with("option.") || ENGINE_KEYS.contains(&key.as_str()) => {
                words.push(keyed(&key, &value));
            }
            _ => {
                return Err(format!(
                    "-{option} {key}=: not supported (cmd, name, args, dir, option.NAME, tc, st, nodes, depth, plies, timemargin, proto=uci, restart=on|off)"
                ));
            }
        }
    }
    if !each && !values.iter().any(|v| v.starts_with("cmd=")) {
        return Err(format!("-engine {}: no cmd=", values.join(" ")));
    }
    Ok(words.join(" "))
}

/// `-openings file= format= order= plies= start= policy=round`.
fn openings(
    values: &[String],
    out: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Result<(), String> {
    let mut file = None;
    let mut format = None;
    for (key, value) in key_values("openings", values)? {
        match key.as_str() {
            "file" => file = Some(value),
            "format" if value == "epd" || value == "pgn" => format = Some(value),
            "format" => return Err(format!("-openings format={value}: epd or pgn")),
            "order" => out.extend(["--openings-order".into(), value]),
            "plies" => out.extend(["--opening-plies".into(), value]),
            "start" => out.extend(["--openings-start".into(), value]),
            "policy" if value == "round" => notes.push(
                "-openings policy=round: searchlab's way already: pair k of every pairing starts from the k-th opening".into(),
            ),
            "policy" => {
                return Err(format!(
                    "-openings policy={value}: searchlab takes the openings round by round (policy=round): pair k of every pairing starts from the k-th opening"
                ));
            }
            _ => return Err(format!("-openings {key}={value}: not supported")),
        }
    }
    let file = file.ok_or("-openings: no file=")?;
    let is_pgn = file.to_ascii_lowercase().ends_with(".pgn");
    match format.as_deref() {
        Some("pgn") if !is_pgn => {
            return Err(format!(
                "-openings file={file} format=pgn: searchlab reads a PGN book from a file named .pgn"
            ));
        }
        Some("epd") if is_pgn => {
            return Err(format!(
                "-openings file={file} format=epd: the file is named .pgn"
            ));
        }
        _ => {}
    }
    out.extend(["--openings".into(), file]);
    Ok(())
}

/// Options whose `KEY=VALUE` words become one comma-separated searchlab value.
fn joined(option: &str, values: &[String], keys: &[&str]) -> Result<String, String> {
    let pairs = key_values(option, values)?;
    if let Some((key, _)) = pairs.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
        return Err(format!(
            "-{option} {key}=: not supported ({})",
            keys.join("=, ") + "="
        ));
    }
    Ok(pairs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(","))
}

/// `-pgnout file=G.pgn [notation=san] [nodes=true] [nps=true] [seldepth= timeleft= latency=]`
/// or cutechess's `-pgnout G.pgn`: the file, and the extra move comments asked for.
fn pgnout(values: &[String], t: &mut Translation) -> Result<String, String> {
    if let [path] = values
        && !path.contains('=')
    {
        return Ok(path.clone());
    }
    let mut file = None;
    let mut extras = Vec::new();
    for (key, value) in key_values("pgnout", values)? {
        let on = value == "true";
        match key.as_str() {
            "file" => file = Some(value),
            "notation" if value == "san" => {}
            "notation" => {
                return Err(format!(
                    "-pgnout notation={value}: searchlab writes SAN (the PGN standard's); notation=san"
                ));
            }
            "nodes" | "nps" if on => extras.push(key),
            "nodes" | "nps" => {}
            "seldepth" | "timeleft" | "latency" => {
                if on {
                    t.notes.push(format!(
                        "-pgnout {key}=true: searchlab does not record a move's {key}; its comments leave it out"
                    ));
                }
            }
            _ => {
                return Err(format!(
                    "-pgnout {key}=: not supported (file=, notation=san, nodes=, nps=, seldepth=, timeleft=, latency=)"
                ));
            }
        }
    }
    if !extras.is_empty() {
        t.args.extend(["--pgn-comments".into(), extras.join(",")]);
    }
    file.ok_or_else(|| "-pgnout: no file=".to_string())
}

/// `-log file=F [level=trace|info|warn|err] [engine=true]`: the file and the level.
fn log(values: &[String], t: &mut Translation) -> Result<String, String> {
    let mut file = None;
    for (key, value) in key_values("log", values)? {
        match key.as_str() {
            "file" => file = Some(value),
            "level" if ["trace", "info", "warn", "err", "fatal"].contains(&value.as_str()) => {
                t.args.extend(["--log-level".into(), value]);
            }
            "level" => return Err(format!("-log level={value}: trace, info, warn, err or fatal")),
            "engine" | "append" | "compress" | "realtime" => t.notes.push(format!(
                "-log {key}={value}: searchlab logs engine traffic by level alone, to a file made anew"
            )),
            _ => return Err(format!("-log {key}=: not supported (file=, level=)")),
        }
    }
    file.ok_or_else(|| "-log: no file=".to_string())
}

/// Games per pairing from `-rounds`, `-games` and `-repeat`.
fn games(rounds: Option<u64>, per_round: Option<u64>, repeat: bool) -> Result<Option<u64>, String> {
    if let Some(n) = rounds.filter(|_| !repeat && per_round.unwrap_or(1) == 1) {
        // fastchess plays round k on opening k: without -repeat (or -games 2) each opening is
        // played once, in one colour. searchlab plays every opening with both colours.
        return Err(format!(
            "-rounds {n} without -repeat plays {n} openings once each in fastchess; searchlab plays each opening with both colours: write -rounds {} -repeat for {} openings of two games (or -rounds {n} -repeat for {} games)",
            n.div_ceil(2),
            n.div_ceil(2),
            2 * n
        ));
    }
    let per_round = per_round.or(repeat.then_some(2));
    if rounds.is_none() && per_round.is_none() {
        return Ok(None);
    }
    let total = rounds.unwrap_or(1) * per_round.unwrap_or(1);
    if total == 0 || total % 2 == 1 {
        return Err(format!(
            "-rounds × -games makes {total} game(s) a pairing: searchlab plays each opening twice with the colours reversed (fastchess's -repeat), so give an even number"
        ));
    }
    Ok(Some(total))
}

/// The options searchlab takes with a note (what it does instead) or refuses with what to do:
/// `true` when `name` is one of them.
fn noted(name: &str, values: &[String], t: &mut Translation) -> Result<bool, String> {
    let mut add = |flag: &str, value: String| t.args.extend([flag.to_string(), value]);
    match name {
        "recover" => t.notes.push(
            "-recover: searchlab always goes on after an engine fails (that game is lost, the engine restarted)".into(),
        ),
        "variant" if values == ["standard"] => {}
        "variant" => return Err(format!("-variant {}: standard chess only", values.join(" "))),
        "output" => t
            .notes
            .push("-output: searchlab prints its own status lines".into()),
        "report" => {
            joined(name, values, &["penta"])?;
            t.notes.push(
                "-report: searchlab's reports always give the pentanomial counts, and its Elo and SPRT are of pairs".into(),
            );
        }
        "autosaveinterval" => t.notes.push(
            "-autosaveinterval: searchlab writes every pair to its results file as it ends (the same line resumes); nothing waits to be saved".into(),
        ),
        "use-affinity" => add_flag(&mut t.args, "--use-affinity"),
        "epdout" => add("--epdout", joined(name, values, &["file"])?.replacen("file=", "", 1)),
        "config" => {
            return Err(
                "-config: fastchess's saved JSON is not read here: write its settings as options on the line (searchlab resumes a match from its results file: run the same line again)".into(),
            );
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Translate a fastchess argument list into `searchlab match` arguments.
pub fn translate(words: &[String]) -> Result<Translation, String> {
    let mut t = Translation::default();
    let (mut rounds, mut per_round, mut repeat) = (None, None, false);
    let mut engines = 0;
    let mut gauntlet = false;
    for option in options(words)? {
        let (name, values) = (option.name.as_str(), option.values.as_slice());
        let mut add = |flag: &str, value: String| t.args.extend([flag.to_string(), value]);
        match name {
            "engine" => {
                engines += 1;
                add("--engine", player(name, values, false)?);
                t.names.push(engine_name(values));
            }
            "each" => add("--each", player(name, values, true)?),
            "rounds" => rounds = Some(number(name, single(name, values)?)?),
            "games" => per_round = Some(number(name, single(name, values)?)?),
            "repeat" => {
                repeat = true;
                if let [n] = values {
                    per_round = Some(number(name, n)?);
                }
            }
            "openings" => openings(values, &mut t.args, &mut t.notes)?,
            "concurrency" => add("--concurrency", single(name, values)?.to_string()),
            "sprt" => add(
                "--sprt",
                joined(name, values, &["elo0", "elo1", "alpha", "beta", "model"])?,
            ),
            "pgnout" => {
                let file = pgnout(values, &mut t)?;
                t.args.extend(["--pgn".into(), file]);
            }
            "log" => {
                let file = log(values, &mut t)?;
                t.args.extend(["--log".into(), file]);
            }
            "draw" => add(
                "--draw",
                joined(name, values, &["movenumber", "movecount", "score"])?,
            ),
            "resign" => add(
                "--resign",
                joined(name, values, &["movecount", "score", "twosided"])?,
            ),
            "maxmoves" => add("--maxmoves", single(name, values)?.to_string()),
            "ratinginterval" => add("--rating-interval", single(name, values)?.to_string()),
            "srand" | "seed" => add("--seed", single(name, values)?.to_string()),
            "randomseed" => {
                let seed = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_007);
                add("--seed", seed.to_string());
                t.notes.push(format!("-randomseed: seed {seed}"));
            }
            "tournament" => match single(name, values)? {
                "gauntlet" => gauntlet = true,
                "roundrobin" => {}
                other => return Err(format!("-tournament {other}: gauntlet or roundrobin")),
            },
            _ if noted(name, values, &mut t)? => {}
            _ => {
                return Err(format!(
                    "-{name}: not supported by searchlab match ({SUPPORTED})"
                ));
            }
        }
    }
    if engines > 2 && !gauntlet {
        return Err(format!(
            "{engines} engines: searchlab plays gauntlets (the first engine against each other); add -tournament gauntlet"
        ));
    }
    if let Some(total) = games(rounds, per_round, repeat)? {
        t.args.extend(["--games".into(), total.to_string()]);
    }
    Ok(t)
}

/// An `-engine`'s name for a file name: its `name=`, else its command's file name.
fn engine_name(values: &[String]) -> String {
    let value = |key: &str| {
        values
            .iter()
            .find_map(|v| v.strip_prefix(key).map(str::to_string))
    };
    let name = value("name=")
        .or_else(|| value("cmd=").map(|c| c.rsplit('/').next().unwrap_or(&c).to_string()))
        .unwrap_or_else(|| "engine".into());
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.+".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Where a fastchess line's results go when the user named no `--out` (fastchess has no such
/// file): `matches/DATE-NAME1-vs-NAME2.jsonl`, a second line with other engines or another
/// day in a file of its own, never a refusal for a file the user did not name. The same line
/// again the same day resumes its match.
pub fn default_out(args: &[String], names: &[String]) -> Option<String> {
    let named = args.iter().any(|a| a == "--out" || a.starts_with("--out="));
    if named {
        return None;
    }
    let date = crate::harness::provenance::Provenance::now().date;
    Some(format!(
        "matches/{}-{}.jsonl",
        &date[..date.len().min(10)],
        names.join("-vs-")
    ))
}

/// `argv` with a fastchess line after `match --` translated: `None` when it has none.
pub fn translate_argv(argv: &[String]) -> Option<Result<(Vec<String>, Translation), String>> {
    if argv.get(1).map(String::as_str) != Some("match") {
        return None;
    }
    let cut = argv.iter().position(|a| a == "--")?;
    Some(translate(&argv[cut + 1..]).map(|t| {
        let mut args = argv[..cut].to_vec();
        args.extend(t.args.iter().cloned());
        (args, t)
    }))
}

/// A task's command for `submit`: the fastchess form (`match -- -engine …`) translated as
/// `match` translates it (its notes and the equivalent line printed), any other as it is.
pub fn translate_task(command: Vec<String>) -> Result<Vec<String>, String> {
    if command.first().map(String::as_str) != Some("match")
        || !command.iter().skip(1).any(|a| a == "--")
    {
        return Ok(command);
    }
    let argv: Vec<String> = std::iter::once("searchlab".to_string())
        .chain(command.iter().cloned())
        .collect();
    match translate_argv(&argv) {
        Some(Ok((args, translation))) => {
            for note in &translation.notes {
                eprintln!("note: {note}");
            }
            eprintln!("equivalent: {}", command_line(&args));
            Ok(args[1..].to_vec())
        }
        Some(Err(why)) => Err(format!("the tasks' fastchess command line: {why}")),
        None => Ok(command),
    }
}

/// The command a translation runs, quoted for a shell.
pub fn command_line(args: &[String]) -> String {
    std::iter::once("searchlab".to_string())
        .chain(
            args.iter()
                .skip(1)
                .map(|a| for_shell(a).unwrap_or_else(|| a.clone())),
        )
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        shlex::split(line).unwrap()
    }

    #[test]
    fn the_documentation_s_example_translates() {
        // fastchess's README example, engines renamed.
        let t = translate(&words(
            "-engine cmd=./dev name=dev -engine cmd=./base name=base -openings file=book.epd format=epd order=random \
             -each tc=8+0.08 option.Hash=16 -rounds 200 -repeat -concurrency 4 -recover \
             -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -pgnout file=games.pgn -ratinginterval 20",
        ))
        .unwrap();
        assert_eq!(
            t.args,
            words(
                "--engine 'cmd=./dev name=dev' --engine 'cmd=./base name=base' --openings-order random \
                 --openings book.epd --each 'tc=8+0.08 option.Hash=16' --concurrency 4 \
                 --sprt elo0=0,elo1=5,alpha=0.05,beta=0.05 --pgn games.pgn --rating-interval 20 --games 400"
            )
        );
        assert_eq!(t.notes.len(), 1, "{:?}", t.notes);
    }

    #[test]
    fn values_with_spaces_stay_one_word() {
        let t = translate(&[
            "-engine".into(),
            "cmd=eng".into(),
            "option.Move Overhead=30".into(),
            "args=-x 1".into(),
        ])
        .unwrap();
        assert_eq!(t.args[1], "cmd=eng 'option.Move Overhead=30' 'args=-x 1'");
    }

    #[test]
    fn what_has_no_counterpart_is_refused_by_name() {
        for (line, says) in [
            (
                "-engine cmd=a -engine cmd=b -wait 5",
                "-wait: not supported",
            ),
            ("-engine cmd=a restart=maybe", "restart=maybe"),
            ("-engine name=a", "no cmd="),
            (
                "-engine cmd=a -pgnout file=g.pgn notation=uci",
                "notation=uci",
            ),
            (
                "-engine cmd=a -config file=c.json",
                "write its settings as options",
            ),
            (
                "-engine cmd=a -openings file=b.epd policy=encounter",
                "policy=encounter",
            ),
            ("-engine cmd=a -rounds 3 -games 3", "even number"),
            (
                "-engine cmd=a -engine cmd=b -rounds 2",
                "-rounds 2 without -repeat plays 2 openings once each",
            ),
            (
                "-engine cmd=a -engine cmd=b -engine cmd=c",
                "-tournament gauntlet",
            ),
            (
                "-engine cmd=a -openings file=b.epd format=pgn",
                "named .pgn",
            ),
            ("-engine cmd=a -sprt elo0=0 elo1=5 model=bayesian", ""),
            ("-engine cmd=a proto=xboard", "UCI only"),
            ("cmd=a", "starts with an option"),
        ] {
            match translate(&words(line)) {
                Err(e) => assert!(e.contains(says), "{line}: {e}"),
                // The SPRT's model is `sprt`'s to refuse, with its own message.
                Ok(t) => assert!(line.contains("bayesian"), "{line}: {t:?}"),
            }
        }
    }

    #[test]
    fn argv_keeps_searchlab_s_own_options_before_the_dashes() {
        let argv = words("searchlab match --out m.jsonl -- -engine cmd=a -engine cmd=b -games 2");
        let (args, _) = translate_argv(&argv).unwrap().unwrap();
        assert_eq!(
            args,
            words("searchlab match --out m.jsonl --engine cmd=a --engine cmd=b --games 2")
        );
        assert!(translate_argv(&words("searchlab run -- x")).is_none());
        assert_eq!(
            command_line(&words("searchlab match --engine 'cmd=a b'")),
            "searchlab match --engine 'cmd=a b'"
        );
    }
}
