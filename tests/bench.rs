//! The bench signature: the node count of `searchlab bench` at its default depth. It changes
//! only when the search's behaviour changes; update it on purpose, in the commit that changes
//! the behaviour, and say so in the message (`Bench: N`).

use std::process::Command;

use searchlab::engine::config::SearchConfig;
use searchlab::harness::bench;

const SIGNATURE: u64 = 8_268_668;

#[test]
fn bench_signature() {
    let positions = bench::bench_positions();
    assert!((30..=50).contains(&positions.len()));
    let report = bench::run(
        &positions,
        bench::DEFAULT_DEPTH,
        SearchConfig::default(),
        None,
        |_| {},
    );
    assert_eq!(report.nodes(), SIGNATURE, "bench signature changed");
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
