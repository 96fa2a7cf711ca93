//! External engines described on the command line the way fastchess and cutechess describe
//! them: `--engine "name=dev cmd=./dev args='-x 1' dir=/path option.Hash=64 option.LMR=false"`,
//! with `--each "option.Hash=16"` applied to every engine (an engine's own key wins). The short
//! form `[LABEL=]"COMMAND"` stays; `--uci-option NAME=VALUE` is `--each option.NAME=VALUE`.
//!
//! Keys: `name` (the label), `cmd` (the program), `args` (its arguments, quoted as a shell
//! quotes them), `dir` (the directory it starts in), `option.NAME` (a `setoption`). The
//! per-engine limits fastchess also takes there (`tc`, `st`, `nodes`, `depth`, `timemargin`)
//! are refused with a reason: every player of a match plays under the match's limits.

use super::external::EngineSpec;

/// The keys an engine description may hold (besides `option.NAME`).
const KEYS: &[&str] = &["name", "cmd", "args", "dir"];

/// Per-engine limits fastchess accepts in an engine's description, not supported here.
const LIMIT_KEYS: &[&str] = &["tc", "st", "nodes", "depth", "timemargin"];

/// One engine: its label and how to start it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineArg {
    pub label: String,
    pub spec: EngineSpec,
}

/// The `setoption` pairs of `--each` (its `option.NAME=VALUE` items) and of `--uci-option`.
pub fn each_options(
    each: &[String],
    uci_options: &[String],
) -> Result<Vec<(String, String)>, String> {
    let mut options = Vec::new();
    for text in each {
        for (key, value) in pairs(text).map_err(|e| format!("--each \"{text}\": {e}"))? {
            match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => options.push((name.to_string(), value)),
                _ if LIMIT_KEYS.contains(&key.as_str()) => {
                    return Err(format!(
                        "--each \"{text}\": {key}= is given once for every player with --tc, --movetime (st), --nodes, --depth or --timemargin"
                    ));
                }
                _ => {
                    return Err(format!(
                        "--each \"{text}\": unknown key '{key}' (option.NAME=VALUE)"
                    ));
                }
            }
        }
    }
    for text in uci_options {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| format!("--uci-option is NAME=VALUE, got '{text}'"))?;
        options.push((name.to_string(), value.to_string()));
    }
    Ok(options)
}

/// One `--engine`: the fastchess form when it has a `cmd=` key, else `[LABEL=]"COMMAND"`.
/// `each` are the options every engine gets; the engine's own options of the same name win.
pub fn parse(text: &str, each: &[(String, String)]) -> Result<EngineArg, String> {
    let keyed = text.split_whitespace().any(|word| word.starts_with("cmd="));
    let (label, command, dir, own) = if keyed {
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
        (label, command, None, Vec::new())
    };
    if command.trim().is_empty() {
        return Err(format!("--engine \"{text}\": no command"));
    }
    let mut options: Vec<(String, String)> = each
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
        },
    })
}

/// The fastchess form: (label, shell command, directory, own options).
type Keyed = (String, String, Option<String>, Vec<(String, String)>);

fn keyed_form(text: &str) -> Result<Keyed, String> {
    let fail = |reason: String| format!("--engine \"{text}\": {reason}");
    let (mut name, mut cmd, mut args, mut dir, mut options) = (None, None, None, None, Vec::new());
    for (key, value) in pairs(text).map_err(fail)? {
        if let Some(option) = key.strip_prefix("option.") {
            if option.is_empty() {
                return Err(fail("option. needs a name: option.NAME=VALUE".into()));
            }
            options.push((option.to_string(), value));
            continue;
        }
        let slot = match key.as_str() {
            "name" => &mut name,
            "cmd" => &mut cmd,
            "args" => &mut args,
            "dir" => &mut dir,
            limit if LIMIT_KEYS.contains(&limit) => {
                return Err(fail(format!(
                    "per-engine limits ({limit}=) are not supported: every player of a match plays under --tc, --movetime, --nodes or --depth"
                )));
            }
            other => {
                return Err(fail(format!(
                    "unknown key '{other}' (keys: {}, option.NAME)",
                    KEYS.join(", ")
                )));
            }
        };
        if slot.replace(value).is_some() {
            return Err(fail(format!("{key}= given twice")));
        }
    }
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
    Ok((label, command, dir, options))
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

/// Words split on white space, with '…' and "…" quoting as in a shell (no escapes inside
/// single quotes; `\` escapes the next character elsewhere).
fn tokens(text: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let mut current: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => tokens.extend(current.take()),
            '\'' => {
                let word = current.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a ' is not closed".into()),
                    }
                }
            }
            '"' => {
                let word = current.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => word.extend(chars.next()),
                        Some(c) => word.push(c),
                        None => return Err("a \" is not closed".into()),
                    }
                }
            }
            '\\' => current.get_or_insert_with(String::new).extend(chars.next()),
            c => current.get_or_insert_with(String::new).push(c),
        }
    }
    tokens.extend(current);
    Ok(tokens)
}

/// `text` quoted for `sh`.
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
        let e = parse("/usr/games/ethereal-chess", &[]).unwrap();
        assert_eq!(e.label, "/usr/games/ethereal-chess");
        let e = parse("name=x cmd=/bin/engine", &[]).unwrap();
        assert_eq!(
            (e.label.as_str(), e.spec.command.as_str()),
            ("x", "'/bin/engine'")
        );
        assert_eq!(parse("cmd=/bin/engine", &[]).unwrap().label, "engine");
    }

    #[test]
    fn bad_descriptions_say_why() {
        for (text, says) in [
            ("name=x cmd=./e tc=8+0.08", "per-engine limits (tc=)"),
            ("name=x cmd=./e colour=red", "unknown key 'colour'"),
            ("name=x cmd=./e cmd=./f", "cmd= given twice"),
            ("name=x cmd='./e", "not closed"),
            ("name=x cmd=./e option.=3", "option.NAME=VALUE"),
            ("name=x cmd=./e lonely", "'lonely' is not KEY=VALUE"),
        ] {
            let err = parse(text, &[]).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
        assert!(
            each_options(&["tc=8+0.08".into()], &[])
                .unwrap_err()
                .contains("--tc")
        );
    }
}
