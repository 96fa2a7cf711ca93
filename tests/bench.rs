//! The bench signature: the node count of `searchlab bench` at its default depth, which benches
//! the UCI engine's configuration (`modern,eval=nnue`), as OpenBench benches the engine it plays. It
//! changes only when the played search changes; update it on purpose, in the commit that
//! changes the behaviour, and say so in the message (`Bench: N`). The research baseline's
//! (`plain`) is checked beside it.

use std::process::Command;

use searchlab::engine::config::SearchConfig;
use searchlab::harness::bench;

const SIGNATURE: u64 = 65_071;
const PLAIN_SIGNATURE: u64 = 8_268_668;

#[test]
fn bench_signature() {
    let positions = bench::bench_positions();
    assert!((30..=50).contains(&positions.len()));
    let played = searchlab::engine::spec::parse(searchlab::uci::DEFAULT_PRESET).unwrap();
    for (config, signature) in [
        (played, SIGNATURE),
        (SearchConfig::default(), PLAIN_SIGNATURE),
    ] {
        let report = bench::run(&positions, bench::DEFAULT_DEPTH, config, None, |_| {}).unwrap();
        assert_eq!(report.nodes(), signature, "bench signature changed");
    }
}

#[test]
fn bench_with_no_arguments_benches_the_uci_default() {
    let signature = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .arg("bench")
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8(output.stdout).unwrap();
        text.lines()
            .last()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    let default = signature(&[]);
    assert_eq!(default, SIGNATURE.to_string());
    assert_eq!(
        default,
        signature(&["--heuristics", searchlab::uci::DEFAULT_PRESET])
    );
}

#[test]
fn bench_command_ends_with_the_signature_line() {
    let output = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["bench", "--depth", "3"])
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let last = text.lines().last().unwrap();
    let fields: Vec<&str> = last.split(' ').collect();
    assert_eq!(fields.len(), 4, "{last}");
    assert!(
        fields[0].parse::<u64>().is_ok() && fields[1] == "nodes",
        "{last}"
    );
    assert!(
        fields[2].parse::<u64>().is_ok() && fields[3] == "nps",
        "{last}"
    );
}

/// `scripts/bench_side_by_side.py`, which measures builds against each other: a build whose
/// bench fails is named with its status and message (not a traceback), and builds that search
/// unlike trees get the warning and each one's time to the depth.
#[test]
fn the_side_by_side_script_names_a_failing_build_and_times_unlike_trees() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/bench_side_by_side.py");
    let binary = env!("CARGO_BIN_EXE_searchlab");
    let run = |other: String| {
        let out = Command::new("python3")
            .args([
                script, "--depth", "2", "--rounds", "1", "--core", "0", binary,
            ])
            .arg(other)
            .output()
            .expect("python3 runs the script");
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        (out.status.success(), text(&out.stdout), text(&out.stderr))
    };
    let (ok, _, err) = run(format!("{binary} --heuristics no_such_heuristic"));
    assert!(!ok, "a failing build fails the script");
    assert!(err.contains("bench exited with status 1"), "{err}");
    assert!(
        err.contains("no_such_heuristic") && !err.contains("Traceback"),
        "{err}"
    );
    let (ok, out, err) = run(format!("{binary} --heuristics plain"));
    assert!(ok, "{err}");
    assert!(
        out.contains("WARNING: the builds searched different trees"),
        "{out}"
    );
    assert_eq!(
        out.matches("s to depth 2 at its median speed").count(),
        2,
        "{out}"
    );
}
