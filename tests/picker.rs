//! Picker perft (after viridithas's `movepicker_perft`): under every combination of the
//! ordering toggles (the modern ones, countermove and SEE ordering, included), walking the tree with the move picker visits exactly perft's leaves, so
//! the picker yields each legal move exactly once whatever it is told to put first, including
//! hash moves and killers that are illegal in the position.

use cozy_chess::{Board, Color, Move};

use searchlab::engine::heuristics::history::{self, History};
use searchlab::engine::heuristics::mvv_lva;
use searchlab::engine::movepick::{MovePicker, Ordering};
use searchlab::engine::perft::perft;

const POSITIONS: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// Which ordering toggles are on: bit 0 PV move, 1 hash move, 2 killers, 3 MVV/LVA,
/// 4 history, 5 mate history, 6 shuffled quiet order, 7 countermove, 8 SEE ordering.
fn picker_perft(
    board: &Board,
    depth: u32,
    toggles: u32,
    tables: &History,
    mvv: &mvv_lva::Params,
    parent: &[Move],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Moves proposed from elsewhere in the tree: legal here or not.
    let pick = |i: usize| parent.get(i).copied();
    let illegal: Move = "a1h8".parse().unwrap();
    let side = board.side_to_move();
    let quiet_key = |mv: Move| {
        let history = if toggles & 16 != 0 {
            tables.history(side, mv)
        } else {
            0
        };
        let mate = if toggles & 32 != 0 {
            tables.mate(side, mv)
        } else {
            0
        };
        history + mate
    };
    let ordering = Ordering {
        pv_move: (toggles & 1 != 0).then(|| pick(0)).flatten(),
        hash_move: (toggles & 2 != 0).then_some(pick(1).unwrap_or(illegal)),
        killers: (toggles & 4 != 0).then_some([pick(2), Some(illegal)]),
        mvv_lva: (toggles & 8 != 0).then_some((mvv, pick(3).map(|m| m.to))),
        quiet_key: (toggles & 48 != 0).then_some(&quiet_key),
        shuffle_quiets: (toggles & 64 != 0).then(|| board.hash()),
        counter: (toggles & 128 != 0).then(|| pick(4).unwrap_or(illegal)),
        see_order: toggles & 256 != 0,
    };
    let mut picker = MovePicker::with_ordering(board, &ordering);
    let mut seen = Vec::new();
    while let Some(mv) = picker.next_move() {
        assert!(
            !seen.contains(&mv),
            "{mv} yielded twice in {board} (toggles {toggles:09b})"
        );
        seen.push(mv);
    }
    assert_eq!(seen.len(), picker.legal_count());
    let mut nodes = 0;
    for &mv in &seen {
        let mut child = board.clone();
        child.play_unchecked(mv);
        nodes += picker_perft(&child, depth - 1, toggles, tables, mvv, &seen);
    }
    nodes
}

#[test]
fn picker_perft_equals_perft_under_every_toggle_combination() {
    let mut tables = History::default();
    let params = history::Params {
        enabled: true,
        ..history::Params::default()
    };
    // Give some moves history so sorting really reorders.
    for (i, text) in ["e2a6", "g2g3", "d5e6", "e1g1", "a2a3", "b4b5"]
        .iter()
        .enumerate()
    {
        let mv: Move = text.parse().unwrap();
        for _ in 0..=i {
            tables.record(Color::White, mv, 1, &params);
        }
        tables.record_mate(Color::White, mv, 20 + i as i32, params.max_hist);
    }
    let mvv = mvv_lva::Params {
        enabled: true,
        special_first: true,
        last_moved_first: true,
    };
    for fen in POSITIONS {
        let board: Board = fen.parse().unwrap();
        let expected = perft(&board, 3);
        for toggles in 0..512 {
            assert_eq!(
                picker_perft(&board, 3, toggles, &tables, &mvv, &[]),
                expected,
                "{fen} toggles {toggles:09b}"
            );
        }
    }
}

#[test]
fn killers_land_at_position_one_after_a_capture_and_zero_without() {
    // Kiwipete has captures: the killer comes right after the first capture.
    let board: Board = POSITIONS[0].parse().unwrap();
    let killer: Move = "a2a3".parse().unwrap();
    assert!(searchlab::engine::moves::is_quiet(&board, killer));
    let ordering = Ordering {
        killers: Some([Some(killer), None]),
        ..Ordering::default()
    };
    let mut picker = MovePicker::with_ordering(&board, &ordering);
    let first = picker.next_move().unwrap();
    assert!(
        board.color_on(first.to) == Some(Color::Black),
        "a capture leads"
    );
    assert_eq!(picker.next_move(), Some(killer));
    // The start position has no capture: the killer is first.
    let board = Board::default();
    let killer: Move = "g1f3".parse().unwrap();
    let ordering = Ordering {
        killers: Some([Some(killer), None]),
        ..Ordering::default()
    };
    assert_eq!(
        MovePicker::with_ordering(&board, &ordering).next_move(),
        Some(killer)
    );
}

#[test]
fn with_nothing_on_captures_come_first_in_generation_order() {
    let board: Board = POSITIONS[0].parse().unwrap();
    let plain: Vec<Move> = {
        let mut p = MovePicker::new(&board);
        std::iter::from_fn(|| p.next_move()).collect()
    };
    let (list, captures) = searchlab::engine::movegen::generate_captures_first(&board);
    assert_eq!(plain, list.as_slice());
    assert_eq!(captures, 8);
}
