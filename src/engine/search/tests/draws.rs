//! Draws inside the tree: how a drawn node scores.

use super::*;

/// `tree_draws=jittered` scores a drawn node one unit above or below zero, the same on every
/// run, where `claimed` scores it zero: with a knight against a bare king every child of the
/// root is drawn by insufficient material.
#[test]
fn jittered_draws_lie_one_unit_off_zero_and_repeat() {
    let run = |spec: &str| {
        let result = search(
            position("8/8/3k4/8/8/3NK3/8/8 w - - 0 1"),
            with_spec(spec, 4),
            &mut Silent,
        );
        (result.score, result.stats)
    };
    let (claimed, _) = run("modern");
    assert_eq!(claimed, DRAW);
    let (jittered, stats) = run("modern,tree_draws=jittered");
    assert_eq!((jittered - DRAW).abs(), 1, "{jittered}");
    assert_eq!(run("modern,tree_draws=jittered"), (jittered, stats));
}
