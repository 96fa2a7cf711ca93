//! The selective techniques' search tests: each changes the tree where it should, fires at
//! some of the nodes or moves it is tested at and not at others, and keeps the search
//! deterministic.

use super::*;

/// `id`'s decision was tested in `result`'s search and fired at some of its tests, not all.
fn fires_at_some_tests(result: &SearchResult, id: Id) {
    let counted = result
        .stats
        .heuristics
        .nonzero()
        .find(|(counter, _)| counter.id() == id)
        .map(|(_, c)| c)
        .unwrap_or_else(|| panic!("{} was tested", id.name()));
    assert!(
        counted.fired > 0 && counted.fired < counted.tested,
        "{}: {counted:?}",
        id.name()
    );
}

/// `singular_extension` searches the hash move deeper where no other move comes near it: at
/// the same depth the tree grows, the decision fires at some of the nodes it was tested at and
/// declines at others, and the search stays deterministic.
#[test]
fn singular_extension_extends_some_hash_moves() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let base = "modern,-singular_extension,singular_extension.min_depth=4";
    let without = search(position(fen), with_spec(base, 7), &mut Silent);
    let with_spec_text = format!("{base},singular_extension");
    let with = search(position(fen), with_spec(&with_spec_text, 7), &mut Silent);
    let again = search(position(fen), with_spec(&with_spec_text, 7), &mut Silent);
    fires_at_some_tests(&with, Id::SingularExtension);
    assert!(with.stats.nodes() > without.stats.nodes());
    assert_eq!(with.stats.nodes(), again.stats.nodes());
}

/// `probcut` cuts some deep null-window nodes on a capture that holds a raised beta: it fires
/// at some of the nodes it was tested at and not at others, the tree shrinks, and the search
/// stays deterministic. A middlegame with captures in the air (Kiwipete); `modern` has it since
/// its SPRT (`reports/elo-search-package/`).
#[test]
fn probcut_cuts_some_nodes_on_a_capture() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let without = search(position(fen), with_spec("modern,-probcut", 8), &mut Silent);
    let with = search(position(fen), with_spec("modern", 8), &mut Silent);
    let again = search(position(fen), with_spec("modern", 8), &mut Silent);
    fires_at_some_tests(&with, Id::Probcut);
    assert_ne!(with.stats.nodes(), without.stats.nodes());
    assert_eq!(with.stats.nodes(), again.stats.nodes());
}

/// `quiet_futility` skips some quiet moves where the evaluation is far below alpha: it fires at
/// some of the moves it was tested on and not at others, the tree shrinks, the search stays
/// deterministic, and its decisions are audited like every pruning's. Kiwipete, where one side
/// is often well behind in the tree; `modern` has it since its SPRT.
#[test]
fn quiet_futility_skips_some_quiet_moves() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let without = search(
        position(fen),
        with_spec("modern,-quiet_futility", 8),
        &mut Silent,
    );
    let with = search(position(fen), with_spec("modern", 8), &mut Silent);
    let again = search(position(fen), with_spec("modern", 8), &mut Silent);
    fires_at_some_tests(&with, Id::QuietFutility);
    assert!(with.stats.nodes() < without.stats.nodes());
    assert_eq!(with.stats.nodes(), again.stats.nodes());
}

/// `multi_cut` cuts some nodes where singular extension's verification found a second move
/// holding a bound above beta: it fires at some of the nodes whose verification ran and not at
/// others, the tree changes, the search stays deterministic, and its cuts are audited like
/// every node pruning's. The singular extension's test position, its minimum depth lowered so
/// that a short search verifies often.
#[test]
fn multi_cut_cuts_some_verified_nodes() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let base = "modern,singular_extension.min_depth=4";
    let with_text = format!("{base},multi_cut");
    let without = search(position(fen), with_spec(base, 8), &mut Silent);
    let with = search(position(fen), with_spec(&with_text, 8), &mut Silent);
    let again = search(position(fen), with_spec(&with_text, 8), &mut Silent);
    fires_at_some_tests(&with, Id::MultiCut);
    assert_ne!(with.stats.nodes(), without.stats.nodes());
    assert_eq!(with.stats.nodes(), again.stats.nodes());
}
