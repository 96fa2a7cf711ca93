use super::*;
use crate::engine::movegen::{generate_captures, quiet_checks};
use crate::engine::moves::captured_piece;
use cozy_chess::Piece;
use std::collections::HashSet;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn all_moves(board: &Board) -> HashSet<Move> {
    let mut set = HashSet::new();
    board.generate_moves(|moves| {
        set.extend(moves);
        false
    });
    set
}

#[test]
fn picker_yields_every_legal_move_once_captures_first() {
    for fen in [
        KIWIPETE,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ] {
        let board: Board = fen.parse().unwrap();
        let mut lists = crate::engine::movepick::PickerLists::default();
        let mut picker = crate::engine::movepick::MovePicker::new(&board, &mut lists);
        let mut seen = Vec::new();
        let mut in_quiets = false;
        while let Some(mv) = picker.next_move(&board) {
            let capture = captured_piece(&board, mv).is_some();
            if in_quiets {
                assert!(!capture, "capture {mv} after a quiet move in {fen}");
            }
            in_quiets |= !capture;
            seen.push(mv);
        }
        let unique: HashSet<Move> = seen.iter().copied().collect();
        assert_eq!(
            unique.len(),
            seen.len(),
            "a move was yielded twice in {fen}"
        );
        assert_eq!(unique, all_moves(&board), "moves differ in {fen}");
    }
}

#[test]
fn en_passant_counts_as_a_capture() {
    let board: Board = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
        .parse()
        .unwrap();
    let captures = generate_captures(&board);
    let ep: Move = "e5f6".parse().unwrap();
    assert!(captures.as_slice().contains(&ep));
    assert_eq!(captures.len(), 1);
}

#[test]
fn see_puts_losing_captures_after_the_killers_and_the_countermove() {
    // White: Qxd5 loses the queen to ...exd5 (pawn e6 defends d5); Nxd5 wins a pawn for
    // nothing... it is defended too, so N for P loses as well; Rxa7 wins a rook's pawn.
    let board: Board = "4k3/p7/4p3/3p4/8/2N5/8/R2QK3 w - - 0 1".parse().unwrap();
    let killer: Move = "e1f2".parse().unwrap();
    let counter: Move = "a1b1".parse().unwrap();
    let ordering = Ordering {
        killers: Some([Some(killer), None]),
        counter: Some(counter),
        see_order: true,
        ..Ordering::default()
    };
    let mut lists = crate::engine::movepick::PickerLists::default();
    let mut picker =
        crate::engine::movepick::MovePicker::with_ordering(&board, &ordering, &mut lists);
    let mut order = Vec::new();
    while let Some((mv, source)) = picker.next_pick(&board, &MoveKeys::NONE) {
        order.push((crate::engine::notation::san(&board, mv), source));
    }
    let names: Vec<&str> = order.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        &names[..5],
        ["Rxa7", "Kf2", "Rb1", "Nxd5", "Qxd5"],
        "{names:?}"
    );
    assert_eq!(
        order[0].1,
        Source::Capture {
            sorted: false,
            losing: false
        }
    );
    assert_eq!(order[2].1, Source::Counter);
    assert_eq!(
        order[3].1,
        Source::Capture {
            sorted: false,
            losing: true
        }
    );
    // Every move once.
    let unique: HashSet<&str> = names.iter().copied().collect();
    assert_eq!(unique.len(), names.len());
    assert_eq!(unique.len(), all_moves(&board).len());
}

#[test]
fn without_see_the_countermove_follows_the_captures() {
    let board: Board = "4k3/p7/4p3/3p4/8/2N5/8/R2QK3 w - - 0 1".parse().unwrap();
    let counter: Move = "a1b1".parse().unwrap();
    let ordering = Ordering {
        counter: Some(counter),
        ..Ordering::default()
    };
    let mut lists = crate::engine::movepick::PickerLists::default();
    let mut picker =
        crate::engine::movepick::MovePicker::with_ordering(&board, &ordering, &mut lists);
    let captures = picker.capture_count(&board, &MoveKeys::NONE);
    let mut moves = Vec::new();
    while let Some(pick) = picker.next_pick(&board, &MoveKeys::NONE) {
        moves.push(pick);
    }
    assert_eq!(moves[captures], (counter, Source::Counter));
}

#[test]
fn start_position_has_no_captures() {
    let board = Board::default();
    let mut lists = crate::engine::movepick::PickerLists::default();
    let mut picker = crate::engine::movepick::MovePicker::new(&board, &mut lists);
    assert_eq!(picker.capture_count(&board, &MoveKeys::NONE), 0);
    while picker.next_move(&board).is_some() {}
    assert_eq!(picker.generated_count(), 20);
}

/// `quiet_checks` against the definition (every legal quiet move, played, that leaves the
/// opponent in check), at every position of seeded random games from positions rich in
/// discovered checks, pins and en passant.
#[test]
fn quiet_checks_are_exactly_the_quiet_moves_that_give_check() {
    let starts = [
        KIWIPETE,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut positions, mut checks) = (0, 0);
    for fen in starts {
        for _game in 0..20 {
            let mut board: Board = fen.parse().unwrap();
            for _ply in 0..60 {
                let moves: Vec<Move> = all_moves(&board).into_iter().collect();
                if moves.is_empty() {
                    break;
                }
                if board.checkers().is_empty() {
                    let expected: HashSet<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&mv| {
                            crate::engine::moves::is_quiet(&board, mv)
                                && crate::engine::moves::gives_check(&board, mv)
                        })
                        .collect();
                    let got: Vec<Move> = quiet_checks(&board, |_| true).as_slice().to_vec();
                    let got_set: HashSet<Move> = got.iter().copied().collect();
                    assert_eq!(got.len(), got_set.len(), "a move twice in {board}");
                    assert_eq!(got_set, expected, "{board}");
                    positions += 1;
                    checks += got.len();
                    // `keep` filters the same list and nothing else.
                    let kept = quiet_checks(&board, |mv| (mv.to.rank() as u8).is_multiple_of(2));
                    let expected_kept: Vec<Move> = got
                        .iter()
                        .copied()
                        .filter(|mv| (mv.to.rank() as u8).is_multiple_of(2))
                        .collect();
                    assert_eq!(kept.as_slice(), expected_kept.as_slice(), "{board}");
                }
                let mut sorted = moves;
                sorted.sort_by_key(|m| (m.from as u8, m.to as u8, m.promotion.map(|p| p as u8)));
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                board.play_unchecked(sorted[(seed >> 33) as usize % sorted.len()]);
            }
        }
    }
    assert!(
        positions > 3000 && checks > 1000,
        "{positions} positions, {checks} checks"
    );
}

#[test]
fn early_moves_pack_every_move_apart() {
    // Two moves that packed alike would make the picker skip a move it never yielded.
    let promotions = [
        None,
        Some(Piece::Knight),
        Some(Piece::Bishop),
        Some(Piece::Rook),
        Some(Piece::Queen),
    ];
    let mut seen = HashSet::new();
    for from in Square::ALL {
        for to in Square::ALL {
            for promotion in promotions {
                let packed = EarlyMoves::packed(Move {
                    from,
                    to,
                    promotion,
                });
                assert_ne!(packed, EarlyMoves::NONE);
                assert!(
                    seen.insert(packed),
                    "{from}{to} {promotion:?} packs like another move"
                );
            }
        }
    }
    let e2e4 = Move {
        from: Square::E2,
        to: Square::E4,
        promotion: None,
    };
    let early = EarlyMoves::of([Some(e2e4), None]);
    assert!(early.contains(e2e4));
    assert!(!early.contains(Move {
        from: Square::E2,
        to: Square::E3,
        promotion: None
    }));
}
