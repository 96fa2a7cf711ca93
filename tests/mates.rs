//! Short mates the UCI default must not prune away (issue 25): every position of WAC and ECM
//! whose `bm` is a mate in three moves or fewer, as Stockfish labels them
//! (`scripts/mate_positions.py`), is found with a mate score by depth 10 wherever `classic`
//! finds it by depth 6 (a mate in three is five plies). `modern` once missed WAC.001's mate in
//! two through depth 12 because late move pruning skipped the quiet check that mates.
//!
//! Every one of them meets depth 10. With the generation 2 network WAC.191 did not (the mate
//! at depth 11, 12 with `singular_extension`: reverse futility returned the static +27 where
//! a mate was the reply); with generations 3 and 4 the default reports it at depth 4.
//!
//! The suites are the repository's copies (`suites/wac.epd`, `suites/ecm.epd`).

mod common;

use std::path::Path;

use searchlab::engine::config::{Limits, SearchConfig};
use searchlab::engine::position::Position;
use searchlab::engine::score::MATE_BOUND;
use searchlab::engine::search::{Silent, search};
use searchlab::engine::spec::configure;
use searchlab::harness::epd::{self, EpdRecord};

/// `scripts/mate_positions.py suites/wac.epd suites/ecm.epd`: Stockfish 15.1
/// at depth 18 on the `bm` moves alone reports a mate in 1 to 3 for the side to move: 38 of
/// WAC's positions (16 mates in two, 22 in three) and none of ECM's.
const MATES_IN_THREE: &[&str] = &[
    "WAC.001", "WAC.004", "WAC.005", "WAC.012", "WAC.027", "WAC.050", "WAC.054", "WAC.057",
    "WAC.060", "WAC.061", "WAC.064", "WAC.079", "WAC.084", "WAC.097", "WAC.099", "WAC.102",
    "WAC.104", "WAC.132", "WAC.136", "WAC.143", "WAC.154", "WAC.156", "WAC.158", "WAC.160",
    "WAC.172", "WAC.173", "WAC.177", "WAC.179", "WAC.184", "WAC.186", "WAC.188", "WAC.191",
    "WAC.197", "WAC.203", "WAC.219", "WAC.225", "WAC.246", "WAC.295",
];

/// The depth by which the UCI default must report each mate (issue 25).
const MATE_DEPTH: u32 = 10;

/// Whether `spec` at `depth` ends with a mate score and one of the `bm` moves.
fn finds_mate(spec: &str, record: &EpdRecord, depth: u32) -> bool {
    let config = SearchConfig {
        limits: Limits::depth(depth),
        ..configure(spec, None, 0).unwrap()
    };
    let result = search(
        Position::new(record.board.clone(), config.eval),
        config,
        &mut Silent,
    )
    .unwrap();
    result.score >= MATE_BOUND
        && result
            .best_move
            .is_some_and(|best| record.best_moves.contains(&best))
}

#[test]
fn the_uci_default_finds_every_short_mate_classic_finds() {
    let suites = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites");
    let mut records = Vec::new();
    for name in ["wac.epd", "ecm.epd"] {
        records
            .extend(epd::read_file(&suites.join(name)).expect("the public suites are in suites/"));
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for id in MATES_IN_THREE {
        let record = records
            .iter()
            .find(|r| r.id() == *id)
            .unwrap_or_else(|| panic!("{id} is not in WAC or ECM"));
        if !finds_mate("classic", record, 6) {
            continue;
        }
        checked += 1;
        if !finds_mate(searchlab::uci::DEFAULT_PRESET, record, MATE_DEPTH) {
            failures.push(format!("{id}: {}", record.fen));
        }
    }
    assert!(
        checked * 10 >= MATES_IN_THREE.len() * 9,
        "classic found only {checked} of the {} mates",
        MATES_IN_THREE.len()
    );
    assert!(
        failures.is_empty(),
        "the UCI default ({}) misses by depth {MATE_DEPTH} mates classic finds by depth 6:\n{}",
        searchlab::uci::DEFAULT_PRESET,
        failures.join("\n")
    );
}

/// Ethereal 12's aspiration windows (`reports/elo-aspiration/`, H1 in self-play) search each
/// fail high again a ply shallower without bound, and on WAC.132 the default with them reports
/// no mate by depth 10: one iteration after another fails high from +3.35 and finishes at
/// depth 4 with the shallow score. Bounded to a ply an iteration (`fail_high_max=1`, the
/// default's since `reports/elo-search-package/`) they find it, and WAC.136's and WAC.186's.
#[test]
fn fail_high_reductions_bounded_to_a_ply_keep_the_short_mates() {
    let suites = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites");
    let records = epd::read_file(&suites.join("wac.epd")).expect("WAC is in suites/");
    let record = |id: &str| records.iter().find(|r| r.id() == id).unwrap();
    let ethereal = "modern,eval=nnue,aspiration.window=18,aspiration.fail_high_reduction=true,\
                    aspiration.fail_low_pull=true";
    let unbounded = format!("{ethereal},aspiration.fail_high_max=64");
    assert!(!finds_mate(&unbounded, record("WAC.132"), MATE_DEPTH));
    let bounded = format!("{ethereal},aspiration.fail_high_max=1");
    for id in ["WAC.132", "WAC.136", "WAC.186"] {
        assert!(finds_mate(&bounded, record(id), MATE_DEPTH), "{id}");
    }
}
