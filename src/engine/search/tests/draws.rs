//! Draws inside the tree: how a drawn node scores, and how a lead nears one.

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

/// `fifty_move_damping` shrinks a lead the fifty-move count has aged, and only that: a queen up
/// with 80 plies on the count, the leaves' evaluations are damped to about (200 − 85) / 200,
/// and the root's score falls well below the undamped one (not exactly by that factor: the
/// damped search may choose another line, whose leaves score otherwise); with the count fresh,
/// the leaves' few plies take off a few percent. Every node read a damped evaluation.
#[test]
fn fifty_move_damping_shrinks_an_aged_lead() {
    let score = |fen: &str, spec: &str| {
        let result = search(position(fen), with_spec(spec, 5), &mut Silent);
        let counter = crate::engine::stats::counter!(FiftyMoveDamping.node);
        (result.score, result.stats.heuristics.get(counter))
    };
    let aged = "4k3/8/8/8/8/8/8/3QK3 w - - 80 60";
    let (plain, untouched) = score(aged, "modern");
    let (damped, counts) = score(aged, "modern,fifty_move_damping");
    assert!(plain > 500, "{plain}");
    assert_eq!(untouched.tested, 0);
    assert!(
        damped > 0 && damped * 100 < plain * 75,
        "{damped} against {plain}"
    );
    assert!(
        counts.tested > 0 && counts.fired == counts.tested,
        "{counts:?}"
    );
    let fresh = "4k3/8/8/8/8/8/8/3QK3 w - - 0 60";
    let (plain, _) = score(fresh, "modern");
    let (damped, _) = score(fresh, "modern,fifty_move_damping");
    assert!(
        damped < plain && damped * 100 > plain * 90,
        "{damped} against {plain}"
    );
}
