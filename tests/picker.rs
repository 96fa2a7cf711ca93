//! Picker perft (after viridithas's `movepicker_perft`): under every combination of the
//! ordering toggles (the modern ones, countermove and SEE ordering, included), walking the tree with the move picker visits exactly perft's leaves, so
//! the picker yields each legal move exactly once whatever it is told to put first, including
//! hash moves and killers that are illegal in the position.

use cozy_chess::{Board, Color, Move};

use searchlab::engine::heuristics::history::{self, History};
use searchlab::engine::heuristics::mvv_lva;
use searchlab::engine::heuristics::see;
use searchlab::engine::movepick::{MoveKeys, MovePicker, Ordering, PickerLists, Source};
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
        scores_quiets: toggles & 48 != 0,
        shuffle_quiets: (toggles & 64 != 0).then(|| board.hash()),
        counter: (toggles & 128 != 0).then(|| pick(4).unwrap_or(illegal)),
        see_order: toggles & 256 != 0,
    };
    let mut lists = PickerLists::default();
    let mut picker = MovePicker::with_ordering(board, &ordering, &mut lists);
    let mut seen = Vec::new();
    let keys = MoveKeys {
        quiet: &quiet_key,
        capture: None,
    };
    while let Some((mv, _)) = picker.next_pick(board, &keys) {
        assert!(
            !seen.contains(&mv),
            "{mv} yielded twice in {board} (toggles {toggles:09b})"
        );
        seen.push(mv);
    }
    assert_eq!(seen.len(), picker.generated_count());
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
    let mut lists = PickerLists::default();
    let mut picker = MovePicker::with_ordering(&board, &ordering, &mut lists);
    let first = picker.next_move(&board).unwrap();
    assert!(
        board.color_on(first.to) == Some(Color::Black),
        "a capture leads"
    );
    assert_eq!(picker.next_move(&board), Some(killer));
    // The start position has no capture: the killer is first.
    let board = Board::default();
    let killer: Move = "g1f3".parse().unwrap();
    let ordering = Ordering {
        killers: Some([Some(killer), None]),
        ..Ordering::default()
    };
    assert_eq!(
        MovePicker::with_ordering(&board, &ordering, &mut PickerLists::default()).next_move(&board),
        Some(killer)
    );
}

#[test]
fn with_nothing_on_captures_come_first_in_generation_order() {
    let board: Board = POSITIONS[0].parse().unwrap();
    let plain: Vec<Move> = {
        let mut lists = PickerLists::default();
        let mut p = MovePicker::new(&board, &mut lists);
        std::iter::from_fn(|| p.next_move(&board)).collect()
    };
    let (list, captures) = searchlab::engine::movegen::generate_captures_first(&board);
    assert_eq!(plain, list.as_slice());
    assert_eq!(captures, 8);
}

/// The documented order computed the plain way: every legal move generated at once, the
/// captures sorted by MVV/LVA (stably) and split by SEE, the quiet moves shuffled then sorted
/// by key (stably); then the PV move, the hash move, the leading captures, the killers, the
/// countermove (before the losing captures with SEE ordering), the other captures, the
/// countermove (without it), the quiet moves, none twice.
fn reference_order(board: &Board, ordering: &Ordering, keys: &MoveKeys) -> Vec<(Move, Source)> {
    let (list, count) = searchlab::engine::movegen::generate_captures_first(board);
    let (mut captures, mut quiets) = (
        list.as_slice()[..count].to_vec(),
        list.as_slice()[count..].to_vec(),
    );
    if let Some((params, to)) = ordering.mvv_lva {
        captures.sort_by_key(|&mv| {
            let key = mvv_lva::capture_key(board, mv, to, params);
            std::cmp::Reverse(keys.capture.map_or(key, |capture| capture(mv, key)))
        });
    }
    if let Some(seed) = ordering.shuffle_quiets {
        searchlab::engine::shuffle::shuffle(&mut quiets, seed);
    }
    if ordering.scores_quiets {
        quiets.sort_by_key(|&mv| std::cmp::Reverse((keys.quiet)(mv)));
    }
    let (good, losing): (Vec<Move>, Vec<Move>) = if ordering.see_order {
        captures.iter().partition(|&&mv| !see::losing(board, mv))
    } else {
        (Vec::new(), captures.clone())
    };
    let sorted = ordering.mvv_lva.is_some();
    let capture = |losing| Source::Capture { sorted, losing };
    let legal = |mv: &Option<Move>| mv.filter(|m| list.as_slice().contains(m));
    let quiet = |mv: &Option<Move>| mv.filter(|m| quiets.contains(m));
    let mut order: Vec<(Move, Source)> = Vec::new();
    let push = |order: &mut Vec<(Move, Source)>, mv: Move, source| {
        if !order.iter().any(|&(m, _)| m == mv) {
            order.push((mv, source));
        }
    };
    let pv = legal(&ordering.pv_move);
    pv.into_iter()
        .for_each(|mv| push(&mut order, mv, Source::Pv));
    if let Some(mv) = legal(&ordering.hash_move).filter(|&m| Some(m) != pv) {
        push(&mut order, mv, Source::Hash);
    }
    let mut rest = captures.clone();
    if ordering.see_order {
        good.iter()
            .for_each(|&mv| push(&mut order, mv, capture(false)));
        rest = losing.clone();
    } else if ordering.killers.is_some()
        && let Some(first) = captures
            .iter()
            .find(|m| !order.iter().any(|(o, _)| o == *m))
    {
        push(&mut order, *first, capture(false));
    }
    for killer in ordering.killers.unwrap_or([None; 2]).iter() {
        quiet(killer)
            .into_iter()
            .for_each(|mv| push(&mut order, mv, Source::Killer));
    }
    let counter = quiet(&ordering.counter).filter(|m| !order.iter().any(|(o, _)| o == m));
    if ordering.see_order {
        counter
            .into_iter()
            .for_each(|mv| push(&mut order, mv, Source::Counter));
    }
    rest.iter()
        .for_each(|&mv| push(&mut order, mv, capture(ordering.see_order)));
    if !ordering.see_order {
        counter
            .into_iter()
            .for_each(|mv| push(&mut order, mv, Source::Counter));
    }
    quiets
        .iter()
        .for_each(|&mv| push(&mut order, mv, Source::Quiet));
    order
}

/// The staged picker (which generates each kind of move only when it is reached and selects
/// instead of sorting) yields the moves in exactly the order of `reference_order`, sources
/// included, at every position of seeded random games, under random toggles, proposed moves
/// (legal, illegal, captures as killers) and history keys with many ties.
#[test]
fn the_staged_picker_keeps_the_order_of_generating_and_sorting_everything() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mvv = mvv_lva::Params {
        enabled: true,
        special_first: true,
        last_moved_first: true,
    };
    let illegal: Move = "a1h8".parse().unwrap();
    let mut compared = 0;
    for fen in POSITIONS
        .iter()
        .chain(&["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
    {
        for _game in 0..12 {
            let mut board: Board = fen.parse().unwrap();
            for _ply in 0..80 {
                let mut moves = Vec::new();
                board.generate_moves(|m| {
                    moves.extend(m);
                    false
                });
                if moves.is_empty() {
                    break;
                }
                let salt = next();
                let key = move |mv: Move| ((mv.from as u64 * 31 + mv.to as u64) ^ salt) as i32 % 7;
                let propose_seed = next();
                let mut propose = || match next() % 4 {
                    0 => None,
                    1 => Some(illegal),
                    _ => Some(moves[next() as usize % moves.len()]),
                };
                let toggles = propose_seed;
                let ordering = Ordering {
                    pv_move: propose(),
                    hash_move: propose(),
                    killers: (toggles & 1 != 0).then(|| [propose(), propose()]),
                    mvv_lva: (toggles & 2 != 0).then_some((&mvv, propose().map(|m| m.to))),
                    scores_quiets: toggles & 4 != 0,
                    shuffle_quiets: (toggles & 8 != 0).then_some(salt),
                    counter: propose(),
                    see_order: toggles & 16 != 0,
                };
                // A capture key in the manner of capture history: the MVV/LVA key scaled, plus
                // a term of the move.
                let capture = move |mv: Move, mvv_lva: i32| mvv_lva * 8 + key(mv) * 3;
                let keys = MoveKeys {
                    quiet: &key,
                    capture: (toggles & 64 != 0).then_some(&capture as &dyn Fn(Move, i32) -> i32),
                };
                let expected = reference_order(&board, &ordering, &keys);
                let mut lists = PickerLists::default();
                let mut picker = MovePicker::with_ordering(&board, &ordering, &mut lists);
                if toggles & 32 != 0 {
                    picker.key_quiets_now(&board, &key);
                }
                let got: Vec<(Move, Source)> =
                    std::iter::from_fn(|| picker.next_pick(&board, &keys)).collect();
                assert_eq!(got, expected, "{board} toggles {:07b}", toggles & 127);
                compared += 1;
                board.play_unchecked(moves[(salt >> 8) as usize % moves.len()]);
            }
        }
    }
    assert!(compared > 2000, "{compared} positions compared");
}
