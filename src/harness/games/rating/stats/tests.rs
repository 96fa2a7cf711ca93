use super::*;
use crate::harness::games::rating::elo::elo;

fn wdl(w: u64, d: u64, l: u64) -> Counts {
    Counts::from_wdl(w, d, l)
}

fn penta(p: [u64; 5]) -> Counts {
    Counts::from_penta(p, 0)
}

fn sprt(elo0: f64, elo1: f64, model: Model) -> Sprt {
    Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model,
    }
}

fn close(value: f64, expected: f64, tolerance: f64) {
    assert!(
        (value - expected).abs() <= tolerance,
        "{value} is not {expected} ± {tolerance}"
    );
}

/// fishtest's worked example: 4307 wins, 8620 draws, 4063 losses at logistic [0, 3].
#[test]
fn trinomial_logistic_llr_matches_fishtests_formula() {
    let llr = sprt(0.0, 3.0, Model::Logistic).llr(&wdl(4307, 8620, 4063));
    close(llr, 2.99, 0.005);
}

/// fastchess's published test values (tests/sprt_test.cpp), which are fishtest's formulas:
/// each to 2 decimals. fastchess lists pentanomial counts as LL, LD, WL, DD, WD, WW.
#[test]
fn llr_agrees_with_published_values_to_two_decimals() {
    let n = Model::Normalized;
    let l = Model::Logistic;
    let cases: [(Counts, Sprt, f64); 8] = [
        (wdl(36433, 68692, 36027), sprt(0.0, 2.0, n), 0.92),
        (wdl(10871, 20431, 10650), sprt(-1.75, 0.25, n), 2.30),
        (wdl(21404, 40708, 21184), sprt(0.5, 2.5, l), -1.57),
        (wdl(57433, 106593, 57030), sprt(0.0, 2.0, l), -2.59),
        (
            penta([365, 16618, 36029 + 200, 16974, 390]),
            sprt(0.0, 2.0, n),
            2.25,
        ),
        (
            penta([127, 4883, 10311 + 401, 5150, 104]),
            sprt(-1.75, 0.25, n),
            3.01,
        ),
        (
            penta([223, 9863, 20279 + 1000, 10037, 246]),
            sprt(0.5, 2.5, l),
            -3.07,
        ),
        (
            penta([871, 26175, 55003 + 980, 26678, 821]),
            sprt(0.0, 2.0, l),
            -4.98,
        ),
    ];
    for (counts, test, expected) in cases {
        // Two decimals: within the rounding of the published value.
        close(test.llr(&counts), expected, 0.006);
    }
    // One-sided results hang on the regularization of the empty categories and are
    // published to 1% (relative): all games won, 120.56; all pairs won, 111.82.
    let all_won = sprt(0.0, 10.0, n).llr(&wdl(4250, 0, 0));
    close(all_won, 120.56, 1.2);
    let all_won = sprt(0.0, 5.0, n).llr(&penta([0, 0, 0, 0, 5550]));
    close(all_won, 111.82, 1.2);
}

#[test]
fn bounds_and_decisions() {
    let test = sprt(0.0, 2.0, Model::Normalized);
    let (lower, upper) = test.bounds();
    close(lower, -2.944, 0.001);
    close(upper, 2.944, 0.001);
    assert_eq!(test.decide(3.0), Decision::Accepted);
    assert_eq!(test.decide(-3.0), Decision::Rejected);
    assert_eq!(test.decide(0.0), Decision::Continue);
    // Asymmetric error rates move the bounds apart.
    let lax = Sprt::parse("elo0=0,elo1=5,alpha=0.1,beta=0.02,model=logistic").unwrap();
    assert_eq!(lax.model, Model::Logistic);
    close(lax.bounds().0, (0.02f64 / 0.9).ln(), 1e-12);
    close(lax.bounds().1, (0.98f64 / 0.1).ln(), 1e-12);
}

#[test]
fn bad_sprt_settings_are_refused_with_the_reason() {
    for (text, says) in [
        ("elo0=0", "elo1"),
        ("elo0=3,elo1=1", "below"),
        ("elo0=0,elo1=2,alpha=0.7", "alpha"),
        ("elo0=0,elo1=2,model=bayes", "model"),
        ("elo0=0,elo1=x", "number"),
        ("elo0=0,elo1=2,gamma=1", "unknown key"),
    ] {
        let err = Sprt::parse(text).unwrap_err();
        assert!(err.contains(says), "{text}: {err}");
    }
}

/// fastchess's published output (a match of 400 games, pentanomial [4, 3, 34, 42, 117]):
/// "Elo: 277.00 +/- 40.90, nElo: 345.17 +/- 34.05 LOS: 100.00 %".
#[test]
fn elo_normalized_elo_and_los_match_published_output() {
    let counts = Counts::from_penta([4, 3, 34, 42, 117], 0);
    let estimate = elo(&counts).unwrap();
    close(estimate.elo.value, 277.00, 0.005);
    close(estimate.elo.half_width(), 40.90, 0.005);
    close(estimate.normalized.value, 345.17, 0.005);
    close(estimate.normalized.half_width(), 34.05, 0.005);
    close(estimate.los, 1.0, 1e-6);
    assert!(!estimate.unbounded);
    let all_lost = elo(&Counts::from_penta([20, 0, 0, 0, 0], 0)).unwrap();
    assert!(all_lost.unbounded && all_lost.elo.value < -1000.0);
    assert_eq!(estimate.elo_text(2), "+277.00 ± 40.90");
}

/// No "± 0.00" where there is no interval: every game won or lost is unbounded, one result
/// everywhere has no variance, and a handful of games is too few.
#[test]
fn estimates_without_an_interval_say_why() {
    let text = |counts: Counts| elo(&counts).unwrap().elo_text(2);
    assert_eq!(
        text(Counts::from_wdl(10, 0, 0)),
        "+∞ (unbounded: every game won)"
    );
    let all_ww = elo(&Counts::from_penta([0, 0, 0, 0, 1_000_000], 0)).unwrap();
    assert!(all_ww.unbounded && all_ww.nelo_text(2).starts_with("+∞"));
    assert!(
        text(Counts::from_wdl(0, 40, 0))
            .ends_with("± n/a (no variance: every game had one result)")
    );
    assert!(text(Counts::from_wdl(1, 0, 3)).contains("± n/a (4 games, fewer than the 10"));
    // A single pair (1-1-0 or 0-1-1 as a pair) has no interval, whatever its variance.
    let one_pair = elo(&Counts::from_penta([0, 0, 0, 1, 0], 0)).unwrap();
    assert!(
        one_pair
            .elo_text(2)
            .ends_with("± n/a (one pair: no interval)")
    );
    assert!(one_pair.nelo_text(2).ends_with("(one pair: no interval)"));
    // Pairs all alike: the normalized Elo is a score over a deviation of 0, unbounded when
    // the score is not ½ (`sprt --penta 0,0,0,100,0`), undefined when it is; never "+0.00".
    let all_wd = elo(&Counts::from_penta([0, 0, 0, 100, 0], 0)).unwrap();
    assert_eq!(
        all_wd.nelo_text(2),
        "+∞ (unbounded: no variance: every pair had one result)"
    );
    let all_dd = elo(&Counts::from_penta([0, 0, 100, 0, 0], 0)).unwrap();
    assert_eq!(
        all_dd.nelo_text(2),
        "n/a (no variance: every pair had one result)"
    );
}

#[test]
fn an_even_match_is_zero_elo_with_los_one_half_and_symmetric_when_reversed() {
    let even = Counts::from_penta([10, 20, 40, 20, 10], 5);
    let estimate = elo(&even).unwrap();
    close(estimate.elo.value, 0.0, 1e-9);
    close(estimate.los, 0.5, 1e-9);
    let ahead = Counts::from_penta([5, 20, 40, 25, 10], 5);
    let (a, b) = (elo(&ahead).unwrap(), elo(&ahead.reversed()).unwrap());
    close(a.elo.value, -b.elo.value, 1e-9);
    close(a.los, 1.0 - b.los, 1e-9);
    assert_eq!(ahead.reversed().reversed(), ahead);
    let llr = sprt(0.0, 5.0, Model::Normalized);
    assert!(llr.llr(&ahead) > llr.llr(&ahead.reversed()));
}

#[test]
fn pairs_count_games_and_points() {
    let mut counts = Counts::default();
    counts.add_pair(Outcome::Win, Outcome::Loss);
    counts.add_pair(Outcome::Draw, Outcome::Draw);
    counts.add_pair(Outcome::Win, Outcome::Draw);
    assert_eq!((counts.wins, counts.draws, counts.losses), (2, 3, 1));
    assert_eq!(counts.penta, [0, 0, 2, 1, 0]);
    close(counts.score(), 3.5 / 6.0, 1e-12);
    assert_eq!(Counts::from_penta([0, 0, 2, 1, 0], 1), counts);
}
