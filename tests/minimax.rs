//! 000's table: full-width minimax from the start position visits exactly perft(d) leaves at
//! the horizon.

use searchlab::engine::config::{Algorithm, Limits, SearchConfig};
use searchlab::engine::position::Position;
use searchlab::engine::search::{Silent, search};

fn horizon_leaves(depth: u32) -> u64 {
    let config = SearchConfig {
        algorithm: Algorithm::Minimax,
        limits: Limits::depth(depth),
        ..SearchConfig::default()
    };
    let result = search(Position::startpos(), config, &mut Silent).unwrap();
    let last = result.iterations.last().expect("the iteration completed");
    assert_eq!(last.depth, depth);
    assert_eq!(last.stats.cutoffs, 0, "minimax must not cut");
    last.stats.horizon
}

#[test]
fn minimax_leaves_equal_perft_5() {
    assert_eq!(horizon_leaves(5), 4_865_609);
}

/// `cargo test --release -- --ignored minimax_leaves_equal_perft_6` (about a minute).
#[test]
#[ignore]
fn minimax_leaves_equal_perft_6() {
    assert_eq!(horizon_leaves(6), 119_060_324);
}
