//! External engines described on the command line the way fastchess and cutechess describe
//! them: `--engine "name=dev cmd=./dev args='-x 1' dir=/path option.Hash=64 option.LMR=false"`,
//! with `--each "option.Hash=16"` applied to every engine (an engine's own key wins). The short
//! form `[LABEL=]"COMMAND"` stays; `--uci-option NAME=VALUE` is `--each option.NAME=VALUE`.
//!
//! Keys: `name` (the label), `cmd` (the program), `args` (its arguments, quoted as a shell
//! quotes them), `dir` (the directory it starts in), `timeout` (seconds a search without a
//! clock may take before the engine counts as hung; by default derived from the limit,
//! `external::search_deadline`), `option.NAME` (a `setoption`), and in
//! `match` the player's own limits (`tc`, `st`, `nodes`, `depth`, `timemargin`: time or node
//! odds). In-process players take the same form with `spec=` instead of `cmd=`:
//! `--variant "name=fast spec=modern,-lmr tc=4+0.04"`.

use crate::harness::external::EngineSpec;

/// The keys an engine description may hold (besides `option.NAME`).
const KEYS: &[&str] = &["name", "cmd", "args", "dir", "timeout", "restart"];

/// The keys of a player's own limits in its description (fastchess's): `tc`, `st` (seconds
/// per move), `nodes`, `depth`, `timemargin` (ms); `games::clock::control::player_control` reads them.
pub const LIMIT_KEYS: &[&str] = &["tc", "st", "nodes", "depth", "timemargin"];

/// One engine: its label, how to start it, and its own limits (`tc=` …, as given).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineArg {
    pub label: String,
    pub spec: EngineSpec,
    pub limits: Vec<(String, String)>,
}

/// What `--each` gives every player: `setoption` pairs (engines only) and limits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Each {
    pub options: Vec<(String, String)>,
    pub limits: Vec<(String, String)>,
    /// `timeout=`, milliseconds.
    pub timeout_ms: Option<u64>,
}

/// `timeout=SECONDS` as milliseconds.
fn timeout_ms(value: &str) -> Result<u64, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 1e6)
        .map(|s| (s * 1000.0).round().max(1.0) as u64)
        .ok_or_else(|| format!("timeout= is seconds (above 0, at most 1000000), got '{value}'"))
}

/// `--each` (its `option.NAME=VALUE` items and limits) and `--uci-option`.
pub fn each_options(each: &[String], uci_options: &[String]) -> Result<Each, String> {
    let mut out = Each::default();
    for text in each {
        for (key, value) in pairs(text).map_err(|e| format!("--each \"{text}\": {e}"))? {
            match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => out.options.push((name.to_string(), value)),
                _ if LIMIT_KEYS.contains(&key.as_str()) => out.limits.push((key, value)),
                _ if key == "timeout" => {
                    out.timeout_ms =
                        Some(timeout_ms(&value).map_err(|e| format!("--each \"{text}\": {e}"))?)
                }
                _ => {
                    return Err(format!(
                        "--each \"{text}\": unknown key '{key}' (option.NAME=VALUE, tc=, st=, nodes=, depth=, timemargin=, timeout=)"
                    ));
                }
            }
        }
    }
    for text in uci_options {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| format!("--uci-option is NAME=VALUE, got '{text}'"))?;
        out.options.push((name.to_string(), value.to_string()));
    }
    Ok(out)
}

/// A player's own limits over `--each`'s: a key the player gives wins.
fn with_each(own: Vec<(String, String)>, each: &[(String, String)]) -> Vec<(String, String)> {
    let mut limits: Vec<(String, String)> = each
        .iter()
        .filter(|(key, _)| !own.iter().any(|(k, _)| k == key))
        .cloned()
        .collect();
    limits.extend(own);
    limits
}

/// An in-process player's label, SPEC and limits.
pub type KeyedVariant = (String, String, Vec<(String, String)>);

/// An in-process player in the keyed form, `name=LABEL spec=SPEC [tc=… st=… nodes=… depth=…
/// timemargin=…]`, when `text` has a `spec=` word: (label, SPEC, limits over `--each`'s).
pub fn keyed_variant(text: &str, each: &Each) -> Result<Option<KeyedVariant>, String> {
    if !text
        .split_whitespace()
        .any(|word| word.starts_with("spec="))
    {
        return Ok(None);
    }
    let fail = |reason: String| format!("--variant \"{text}\": {reason}");
    let mut d = described(text, &["name", "spec"], false).map_err(fail)?;
    let (name, spec, limits) = (d.take("name"), d.take("spec"), d.limits);
    let spec = spec.unwrap_or_default();
    Ok(Some((
        name.unwrap_or_else(|| spec.clone()),
        spec,
        with_each(limits, &each.limits),
    )))
}

/// One `--engine`: the fastchess form when it has a `cmd=` key, else `[LABEL=]"COMMAND"`.
/// `each` are the options every engine gets; the engine's own options of the same name win.
pub fn parse(text: &str, each: &Each) -> Result<EngineArg, String> {
    let keyed = text.split_whitespace().any(|word| word.starts_with("cmd="));
    let (label, command, dir, own, limits, timeout, restart) = if keyed {
        keyed_form(text)?
    } else {
        let (label, command) = match text.split_once('=') {
            Some((label, command)) if !label.contains(' ') && !label.contains('/') => {
                (label.to_string(), command.to_string())
            }
            _ => (
                text.split_whitespace().next().unwrap_or(text).to_string(),
                text.to_string(),
            ),
        };
        (label, command, None, Vec::new(), Vec::new(), None, false)
    };
    if command.trim().is_empty() {
        return Err(format!("--engine \"{text}\": no command"));
    }
    let mut options: Vec<(String, String)> = each
        .options
        .iter()
        .filter(|(name, _)| !own.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)))
        .cloned()
        .collect();
    options.extend(own);
    Ok(EngineArg {
        label,
        spec: EngineSpec {
            command,
            options,
            name: None,
            dir,
            timeout_ms: timeout.or(each.timeout_ms),
            program_checksum: None,
            restart,
        },
        limits: with_each(limits, &each.limits),
    })
}

/// The fastchess form: (label, shell command, directory, own options, own limits, timeout in
/// milliseconds, a fresh process for every game).
type Keyed = (
    String,
    String,
    Option<String>,
    Vec<(String, String)>,
    Vec<(String, String)>,
    Option<u64>,
    bool,
);

fn keyed_form(text: &str) -> Result<Keyed, String> {
    let fail = |reason: String| format!("--engine \"{text}\": {reason}");
    let mut d = described(text, KEYS, true).map_err(fail)?;
    let (name, cmd, args, dir) = (d.take("name"), d.take("cmd"), d.take("args"), d.take("dir"));
    let timeout = d
        .take("timeout")
        .map(|t| timeout_ms(&t))
        .transpose()
        .map_err(fail)?;
    let restart = match d.take("restart").as_deref() {
        None | Some("off") => false,
        Some("on") => true,
        Some(other) => return Err(fail(format!("restart={other}: on or off"))),
    };
    let (options, limits) = (d.options, d.limits);
    let cmd = cmd.ok_or_else(|| fail("cmd= is missing".into()))?;
    let label = name.unwrap_or_else(|| {
        std::path::Path::new(&cmd)
            .file_name()
            .map_or(cmd.clone(), |n| n.to_string_lossy().into_owned())
    });
    let mut command = quote(&cmd);
    for arg in tokens(args.as_deref().unwrap_or("")).map_err(fail)? {
        command.push(' ');
        command.push_str(&quote(&arg));
    }
    Ok((label, command, dir, options, limits, timeout, restart))
}

/// A player's description read: its keys' values (each given once), its `option.NAME`s and
/// its own limits.
struct Described {
    values: Vec<(String, String)>,
    options: Vec<(String, String)>,
    limits: Vec<(String, String)>,
}

impl Described {
    fn take(&mut self, key: &str) -> Option<String> {
        let at = self.values.iter().position(|(k, _)| k == key)?;
        Some(self.values.remove(at).1)
    }
}

/// Read `text`'s `KEY=VALUE` items: `keys`, `option.NAME` (when `options`) and the limits.
fn described(text: &str, keys: &[&str], options: bool) -> Result<Described, String> {
    let mut d = Described {
        values: Vec::new(),
        options: Vec::new(),
        limits: Vec::new(),
    };
    for (key, value) in pairs(text)? {
        if let (true, Some(option)) = (options, key.strip_prefix("option.")) {
            if option.is_empty() {
                return Err("option. needs a name: option.NAME=VALUE".into());
            }
            d.options.push((option.to_string(), value));
        } else if LIMIT_KEYS.contains(&key.as_str()) {
            d.limits.push((key, value));
        } else if keys.contains(&key.as_str()) {
            if d.values.iter().any(|(k, _)| *k == key) {
                return Err(format!("{key}= given twice"));
            }
            d.values.push((key, value));
        } else {
            return Err(format!(
                "unknown key '{key}' (keys: {}{}, {})",
                keys.join(", "),
                if options { ", option.NAME" } else { "" },
                LIMIT_KEYS.join(", ")
            ));
        }
    }
    Ok(d)
}

/// The `KEY=VALUE` items of a description.
fn pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    tokens(text)?
        .into_iter()
        .map(|token| {
            token
                .split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("'{token}' is not KEY=VALUE"))
        })
        .collect()
}

/// Words split as a POSIX shell splits them (quotes, backslashes), by the `shlex` crate.
fn tokens(text: &str) -> Result<Vec<String>, String> {
    shlex::split(text).ok_or_else(|| "a quote is not closed (or a backslash ends it)".into())
}

/// `text` quoted for `sh`, always (the command recorded in results headers keeps one form).
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastchess_form() {
        let each = each_options(&["option.Hash=16 option.Threads=1".into()], &[]).unwrap();
        let e = parse(
            "name=dev cmd=./dev args='-x 1 \"two words\"' dir=/tmp/my\\ engines option.Hash=64 option.LMR=false",
            &each,
        )
        .unwrap();
        assert_eq!(e.label, "dev");
        assert_eq!(e.spec.command, "'./dev' '-x' '1' 'two words'");
        assert_eq!(e.spec.dir.as_deref(), Some("/tmp/my engines"));
        assert_eq!(
            e.spec.options,
            vec![
                ("Threads".to_string(), "1".to_string()),
                ("Hash".to_string(), "64".to_string()),
                ("LMR".to_string(), "false".to_string()),
            ],
            "the engine's own Hash wins over --each"
        );
    }

    #[test]
    fn the_short_form_and_uci_options() {
        let each = each_options(&[], &["Hash=16".into()]).unwrap();
        let e = parse("sf=/usr/games/stockfish", &each).unwrap();
        assert_eq!(
            (e.label.as_str(), e.spec.command.as_str()),
            ("sf", "/usr/games/stockfish")
        );
        assert_eq!(e.spec.options, vec![("Hash".into(), "16".into())]);
        let e = parse("/usr/games/ethereal-chess", &Each::default()).unwrap();
        assert_eq!(e.label, "/usr/games/ethereal-chess");
        let e = parse("name=x cmd=/bin/engine", &Each::default()).unwrap();
        assert_eq!(
            (e.label.as_str(), e.spec.command.as_str()),
            ("x", "'/bin/engine'")
        );
        assert_eq!(
            parse("cmd=/bin/engine", &Each::default()).unwrap().label,
            "engine"
        );
    }

    #[test]
    fn bad_descriptions_say_why() {
        for (text, says) in [
            ("name=x cmd=./e colour=red", "unknown key 'colour'"),
            ("name=x cmd=./e cmd=./f", "cmd= given twice"),
            ("name=x cmd='./e", "not closed"),
            ("name=x cmd=./e option.=3", "option.NAME=VALUE"),
            ("name=x cmd=./e lonely", "'lonely' is not KEY=VALUE"),
        ] {
            let err = parse(text, &Each::default()).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
        assert!(
            each_options(&["colour=red".into()], &[])
                .unwrap_err()
                .contains("unknown key 'colour'")
        );
    }

    /// Time or node odds: a player's own limits, over `--each`'s, in both forms.
    #[test]
    fn players_own_limits() {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        let each = each_options(&["option.Hash=16 tc=8+0.08 timemargin=50".into()], &[]).unwrap();
        assert_eq!(each.options, vec![pair("Hash", "16")]);
        assert_eq!(
            each.limits,
            vec![pair("tc", "8+0.08"), pair("timemargin", "50")]
        );
        let e = parse("name=dev cmd=./dev tc=4+0.04", &each).unwrap();
        assert_eq!(
            e.limits,
            vec![pair("timemargin", "50"), pair("tc", "4+0.04")]
        );
        let (label, spec, limits) =
            keyed_variant("name=fast spec=modern,-lmr nodes=5000", &Each::default())
                .unwrap()
                .unwrap();
        assert_eq!((label.as_str(), spec.as_str()), ("fast", "modern,-lmr"));
        assert_eq!(limits, vec![pair("nodes", "5000")]);
        assert_eq!(keyed_variant("fast=modern,-lmr", &each).unwrap(), None);
        assert!(
            keyed_variant("spec=modern colour=red", &each)
                .unwrap_err()
                .contains("unknown key 'colour'")
        );
    }
}
