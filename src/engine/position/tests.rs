use super::*;
use cozy_chess::util::parse_uci_move;

fn play(pos: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = parse_uci_move(pos.board(), m).unwrap();
        pos.make(mv);
    }
}

#[test]
fn make_and_unmake_restore_board_and_series() {
    let mut pos = Position::startpos();
    let start = pos.board().clone();
    play(&mut pos, "e2e4 d7d5");
    assert_eq!(pos.line_len(), 2);
    play(&mut pos, "e4d5");
    let entry = *pos.last_entry().unwrap();
    assert_eq!(entry.captured, Some(Piece::Pawn));
    assert_eq!(entry.mover, Color::White);
    assert_eq!(entry.material, 100);
    assert_eq!(pos.static_eval(), -entry.r);
    pos.unmake();
    pos.unmake();
    pos.unmake();
    assert_eq!(pos.board(), &start);
    assert_eq!(pos.static_eval(), 0);
}

/// Every move to depth 3 from positions with castling, en passant and promotions: the
/// incremental terms (and the NNUE's accumulators) equal a count from scratch, for every
/// evaluation, null moves included.
#[test]
fn incremental_terms_equal_a_fresh_count() {
    fn walk(pos: &mut Position, depth: u32) {
        assert_eq!(*pos.terms(), eval::Terms::of(pos.board()));
        assert_eq!(
            pos.static_eval(),
            eval::evaluate(pos.board(), pos.eval_kind())
        );
        if depth == 0 {
            return;
        }
        let mut moves = Vec::new();
        pos.board().generate_moves(|m| {
            moves.extend(m);
            false
        });
        for mv in moves {
            pos.make(mv);
            walk(pos, depth - 1);
            pos.unmake();
        }
        if depth == 2 && pos.make_null() {
            walk(pos, 1);
            pos.unmake();
        }
    }
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ] {
        for kind in [EvalKind::Full, EvalKind::Material, EvalKind::Nnue] {
            let mut pos = Position::new(fen.parse().unwrap(), kind);
            walk(&mut pos, 3);
        }
    }
}

#[test]
fn en_passant_is_a_capture() {
    let mut pos = Position::startpos();
    play(&mut pos, "e2e4 a7a6 e4e5 d7d5");
    let ep = parse_uci_move(pos.board(), "e5d6").unwrap();
    assert!(pos.is_capture(ep));
    let castle_like = parse_uci_move(pos.board(), "g1f3").unwrap();
    assert!(!pos.is_capture(castle_like));
}

#[test]
fn repetition_in_game_history_needs_three_occurrences() {
    let mut pos = Position::startpos();
    play(&mut pos, "g1f3 g8f6 f3g1 f6g8");
    pos.set_root();
    // The start position occurred once before the root: not yet a draw.
    assert!(!pos.is_repetition());
    play(&mut pos, "g1f3 g8f6 f3g1 f6g8");
    assert!(pos.is_repetition());
}

#[test]
fn repetition_inside_the_search_is_a_draw_at_once() {
    let mut pos = Position::startpos();
    pos.set_root();
    assert!(!pos.is_repetition(), "the root alone is no repetition");
    play(&mut pos, "g1f3 g8f6 f3g1 f6g8");
    // Back at the root position: the root is on the search line, so its second occurrence
    // is a draw (before, the root counted as game history and needed a third).
    assert!(pos.is_repetition());
    assert!(pos.is_draw());
    play(&mut pos, "g1f3");
    // The position after 1.Nf3 occurred at ply 1, inside the search.
    assert!(pos.is_repetition());
}

#[test]
fn fifty_move_rule() {
    let board: Board = "4k3/8/8/8/8/8/4P3/4K2R w - - 99 80".parse().unwrap();
    let mut pos = Position::new(board, EvalKind::Full);
    assert!(!pos.is_draw());
    play(&mut pos, "h1h2");
    assert!(pos.is_draw());
}

#[test]
fn insufficient_material_cases() {
    let draw =
        |fen: &str| Position::new(fen.parse().unwrap(), EvalKind::Full).insufficient_material();
    assert!(draw("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    assert!(draw("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"));
    assert!(draw("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1")); // both bishops on dark squares
    assert!(!draw("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1"));
    assert!(!draw("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"));
    assert!(!draw("4k3/8/8/8/8/8/7P/4K3 w - - 0 1"));
}

#[test]
fn null_move_is_refused_in_check_and_undone() {
    let board: Board = "4k3/8/8/8/8/8/8/4K2r w - - 0 1".parse().unwrap();
    let mut pos = Position::new(board, EvalKind::Full);
    assert!(!pos.make_null());
    let mut pos = Position::startpos();
    assert!(pos.make_null());
    assert_eq!(pos.board().side_to_move(), Color::Black);
    pos.unmake();
    assert_eq!(pos.board().side_to_move(), Color::White);
}

#[test]
fn a_mate_on_the_move_that_reaches_the_fifty_move_count_is_a_mate() {
    let mut pos = Position::new(
        "k7/8/1K6/8/8/8/8/7R w - - 99 90".parse().unwrap(),
        EvalKind::Full,
    );
    pos.set_root();
    play(&mut pos, "h1h8");
    assert_eq!(pos.board().halfmove_clock(), 100);
    assert!(!pos.is_draw(), "checkmate, not a fifty-move draw");
    pos.unmake();
    play(&mut pos, "h1h2");
    assert!(pos.is_draw(), "a quiet move reaching the count draws");
}

#[test]
fn the_channel_periods_change_the_channel_and_nothing_else() {
    let line = "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 g8f6";
    let mut default = Position::startpos();
    play(&mut default, line);
    let mut other = Position::startpos();
    other.set_periods(Periods {
        channel_fast: 3.0,
        channel_slow: 20.0,
        ..Periods::default()
    });
    play(&mut other, line);
    // Set after the moves: the line is replayed under the new periods.
    let mut replayed = Position::startpos();
    play(&mut replayed, line);
    replayed.set_periods(Periods {
        channel_fast: 3.0,
        channel_slow: 20.0,
        ..Periods::default()
    });
    let (a, b) = (
        default.line_stats(Color::White),
        other.line_stats(Color::White),
    );
    assert_ne!(a.channel_fast, b.channel_fast);
    assert_ne!(a.channel_slow, b.channel_slow);
    assert_eq!(
        (a.eval, a.ema3, a.trend_b, a.rsi),
        (b.eval, b.ema3, b.trend_b, b.rsi)
    );
    assert_eq!(replayed.line_stats(Color::White), b);
    // Period 5 is 002's `ema5 = 0.2*R + 0.8*prev`.
    let mut one = Position::startpos();
    let start = one.line_stats(Color::White).channel_fast;
    play(&mut one, "e2e4");
    let r = f64::from(one.line_stats(Color::White).eval);
    let expected = 0.2 * r + 0.8 * start;
    assert!((one.line_stats(Color::White).channel_fast - expected).abs() < 1e-9);
}
