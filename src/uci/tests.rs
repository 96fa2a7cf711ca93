use super::*;
use crate::engine::config::Clock;
use cozy_chess::Color;

#[test]
fn go_parses_every_limit() {
    let l = parse_go(
        &["depth", "6", "nodes", "1000", "movetime", "250"],
        Color::White,
    )
    .unwrap();
    assert_eq!(
        (l.depth, l.nodes, l.movetime_ms),
        (Some(6), Some(1000), Some(250))
    );
    let l = parse_go(
        &[
            "wtime",
            "1000",
            "btime",
            "900",
            "winc",
            "10",
            "binc",
            "20",
            "movestogo",
            "5",
        ],
        Color::Black,
    )
    .unwrap();
    assert_eq!(
        l.clock,
        Some(Clock {
            time_ms: 900,
            inc_ms: 20,
            movestogo: Some(5),
            overhead_ms: crate::engine::config::MOVE_OVERHEAD_MS,
        })
    );
    assert!(parse_go(&["infinite"], Color::White).unwrap().infinite);
}

#[test]
fn go_rejects_bad_input_with_a_reason() {
    assert_eq!(
        parse_go(&["depth"], Color::White).unwrap_err(),
        "go: 'depth' needs a value"
    );
    assert_eq!(
        parse_go(&["depth", "x"], Color::White).unwrap_err(),
        "go: bad value 'x' for 'depth'"
    );
    assert!(
        parse_go(&["sideways"], Color::White)
            .unwrap_err()
            .contains("unknown")
    );
}

#[test]
fn position_errors_leave_the_position_unchanged() {
    let mut engine = UciEngine::new();
    engine.set_position(&["startpos", "moves", "e2e4"]).unwrap();
    let before = engine.position.board().clone();
    assert!(
        engine
            .set_position(&["startpos", "moves", "e7e6", "e2e4"])
            .is_err()
    );
    assert!(engine.set_position(&["fen", "not", "a", "fen"]).is_err());
    assert!(engine.set_position(&["sideways"]).is_err());
    assert_eq!(engine.position.board(), &before);
}

#[test]
fn options_are_validated() {
    let mut engine = UciEngine::new();
    assert!(engine.set_option(&["name", "Hash", "value", "64"]).is_ok());
    assert_eq!(engine.hash_mb(), 64);
    assert!(engine.set_option(&["name", "Hash", "value", "0"]).is_err());
    assert!(
        engine
            .set_option(&["name", "Algorithm", "value", "minimax"])
            .is_ok()
    );
    assert!(engine.set_option(&["name", "Nope", "value", "1"]).is_err());
    assert!(engine.set_option(&["Hash"]).is_err());
}

#[test]
fn every_heuristic_is_an_option() {
    let mut engine = UciEngine::new();
    engine
        .set_option(&["name", "killers", "value", "true"])
        .unwrap();
    assert!(engine.config.heuristics.killers.enabled);
    engine
        .set_option(&["name", "gsr.red2", "value", "3"])
        .unwrap();
    assert_eq!(engine.config.heuristics.gsr.red2, 3);
    assert!(
        engine
            .set_option(&["name", "killers", "value", "maybe"])
            .is_err()
    );
    assert!(
        engine
            .set_option(&["name", "gsr.nope", "value", "3"])
            .is_err()
    );
    engine
        .set_option(&["name", "Heuristics", "value", "classic,-futility"])
        .unwrap();
    assert!(engine.config.heuristics.tt.enabled && !engine.config.heuristics.futility.enabled);
    assert!(
        engine
            .set_option(&["name", "Heuristics", "value", "classic,bogus"])
            .is_err()
    );
    // A forbidden combination is refused and leaves the configuration as it was.
    engine
        .set_option(&["name", "ema_channel", "value", "true"])
        .unwrap();
    engine
        .set_option(&["name", "trend", "value", "true"])
        .unwrap();
    let before = engine.config.heuristics;
    let err = engine
        .set_option(&["name", "trend.side", "value", "beta"])
        .unwrap_err();
    assert!(err.contains("refused"), "{err}");
    assert_eq!(engine.config.heuristics, before);
}

#[test]
fn threads_move_overhead_and_clear_hash_for_guis_and_openbench() {
    let mut engine = UciEngine::new();
    // The default is the strongest preset, not the harness's plain baseline.
    assert_eq!(engine.config, UciEngine::default_config());
    assert!(engine.config.heuristics.killers.enabled && engine.config.heuristics.tt.enabled);
    engine
        .set_option(&["name", "Threads", "value", "1"])
        .unwrap();
    let err = engine
        .set_option(&["name", "Threads", "value", "4"])
        .unwrap_err();
    assert!(err.contains("single-threaded"), "{err}");
    engine
        .set_option(&["name", "Move", "Overhead", "value", "100"])
        .unwrap();
    assert_eq!(engine.move_overhead_ms, 100);
    assert!(
        engine
            .set_option(&["name", "Move", "Overhead", "value", "-1"])
            .is_err()
    );
    engine.set_option(&["name", "Clear", "Hash"]).unwrap();
}

#[test]
fn the_default_is_the_advertised_heuristics_with_the_advertised_eval() {
    // `DEFAULT_PRESET` (bench, the engine) and the two options a GUI sees must agree, and the
    // engine's position must evaluate as its configuration says before any `position`.
    let preset = crate::engine::spec::parse(DEFAULT_PRESET).unwrap();
    let heuristics = crate::engine::spec::parse(DEFAULT_HEURISTICS).unwrap();
    assert_eq!(preset.heuristics, heuristics.heuristics);
    assert_eq!(preset.algorithm, heuristics.algorithm);
    assert_eq!(preset.eval, DEFAULT_EVAL);
    let engine = UciEngine::new();
    assert_eq!(engine.config.eval, DEFAULT_EVAL);
    assert_eq!(engine.position.eval_kind(), DEFAULT_EVAL);
    // Choosing heuristics keeps the evaluation chosen: OpenBench sets both, in any order. The
    // evaluation chosen is not the default's, so that a reset to it would show.
    assert_ne!(DEFAULT_EVAL, EvalKind::Material);
    for order in [["Eval", "Heuristics"], ["Heuristics", "Eval"]] {
        let mut engine = UciEngine::new();
        for name in order {
            let value = if name == "Eval" {
                "material"
            } else {
                "modern,+gsr"
            };
            engine.set_option(&["name", name, "value", value]).unwrap();
        }
        assert_eq!(engine.config.eval, EvalKind::Material, "{order:?}");
    }
}

/// One SPEC, one engine: `Heuristics=classic` alone is `--variant classic` (its evaluation
/// `full`, as every SPEC without `eval=` means), not `classic` with the default's network; a
/// SPEC's `eval=` wins over `Eval` in either order; the whole SPEC is taken (move order,
/// leaf and draw rules too).
#[test]
fn a_heuristics_spec_is_the_same_configuration_as_the_variant() {
    for text in [
        "classic",
        "modern,eval=material",
        "plain,quiet_order=shuffled,tree_draws=ignored",
        "modern,eval=nnue,tree_draws=jittered",
        "modern,eval=nnue,lmr.cut_node=2",
        "modern,eval=nnue,aspiration.window=18,aspiration.fail_high_reduction=true,aspiration.fail_low_pull=true,aspiration.fail_high_max=1",
        "modern,eval=nnue,time_usage=130",
        "modern,eval=nnue,time_inc=125",
        "modern,eval=nnue,+capture_history,capture_history.scale=256",
        "modern,eval=nnue,fifty_move_damping",
        "modern,eval=nnue,endgame_scale,endgame_scale.complexity=false",
    ] {
        let mut engine = UciEngine::new();
        engine
            .set_option(&["name", "Heuristics", "value", text])
            .unwrap();
        let variant = crate::engine::spec::parse(text).unwrap();
        assert_eq!(
            SearchConfig {
                limits: variant.limits,
                seed: variant.seed,
                ..engine.config
            },
            variant,
            "{text}"
        );
        assert_eq!(engine.position.eval_kind(), variant.eval);
    }
    for order in [["Eval", "Heuristics"], ["Heuristics", "Eval"]] {
        let mut engine = UciEngine::new();
        for name in order {
            let value = if name == "Eval" {
                "nnue"
            } else {
                "classic,eval=full"
            };
            engine.set_option(&["name", name, "value", value]).unwrap();
        }
        assert_eq!(engine.config.eval, EvalKind::Full, "{order:?}");
    }
}

#[test]
fn a_heuristics_spec_that_names_an_eval_sets_it() {
    let mut engine = UciEngine::new();
    engine
        .set_option(&["name", "Heuristics", "value", "modern,eval=material"])
        .unwrap();
    assert_eq!(engine.config.eval, EvalKind::Material);
    assert_eq!(engine.position.eval_kind(), EvalKind::Material);
}
