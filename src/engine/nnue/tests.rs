use cozy_chess::{Board, Color, Piece, Square};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;

/// A network of seeded random weights of a trained net's magnitudes.
pub fn random_network(seed: u64) -> Network {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut small = |range: i32| (rng.next_u32() % (2 * range as u32 + 1)) as i32 - range;
    let mut net = Network::zeroed();
    for row in net.input.iter_mut() {
        row.iter_mut().for_each(|w| *w = small(40) as i16);
    }
    net.hidden_bias
        .iter_mut()
        .for_each(|w| *w = small(60) as i16);
    net.output
        .iter_mut()
        .flatten()
        .for_each(|w| *w = small(120) as i16);
    net.output_bias.iter_mut().for_each(|b| *b = small(5000));
    net
}

/// Thousands of random moves and take-backs: after every one, the accumulator kept move by
/// move equals the one summed from scratch, and so does the evaluation, for a network that
/// reads the board as it stands and for a mirrored one (whose kings cross the middle).
#[test]
fn incremental_accumulators_equal_the_sums_from_scratch() {
    let (plain, mirrored) = (
        random_network(1),
        Network {
            mirrored: true,
            ..random_network(1)
        },
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let (mut checked, mut crossings) = (0, 0);
    for game in 0..80 {
        let net = if game % 2 == 0 { &plain } else { &mirrored };
        let mut boards = vec![Board::default()];
        let mut stack = vec![Accumulator::of(&boards[0], net)];
        for _ in 0..200 {
            let board = boards.last().unwrap().clone();
            let mut moves = Vec::new();
            board.generate_moves(|list| {
                moves.extend(list);
                false
            });
            let take_back = boards.len() > 1 && rng.next_u32() % 4 == 0;
            if moves.is_empty() || take_back {
                if boards.len() == 1 {
                    break;
                }
                boards.pop();
                stack.pop();
            } else {
                let mv = moves[rng.next_u32() as usize % moves.len()];
                let mut after = board.clone();
                after.play_unchecked(mv);
                let acc = stack.last().unwrap().after(net, &board, &after);
                crossings += usize::from(acc.flipped != stack.last().unwrap().flipped);
                stack.push(acc);
                boards.push(after);
            }
            let board = boards.last().unwrap();
            let scratch = Accumulator::of(board, net);
            assert_eq!(stack.last().unwrap(), &scratch, "{board}");
            assert_eq!(
                stack.last().unwrap().evaluate(net, board),
                scratch.evaluate(net, board)
            );
            checked += 1;
        }
    }
    assert!(
        checked > 10000 && crossings > 100,
        "{checked} positions, {crossings} crossings"
    );
}

/// The same position with colours swapped and the board mirrored evaluates the same for the
/// side to move: each perspective sees its own pieces as "ours".
#[test]
fn the_evaluation_is_symmetric_under_colour_flip() {
    let net = random_network(3);
    let white: Board = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
        .parse()
        .unwrap();
    let black: Board = "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4"
        .parse()
        .unwrap();
    let eval = |b: &Board| Accumulator::of(b, &net).evaluate(&net, b);
    assert_eq!(eval(&white), eval(&black));
    assert_ne!(eval(&white), 0);
}

#[test]
fn features_number_each_piece_once_per_perspective() {
    let mut seen = [[false; INPUTS]; 2];
    for (p, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for square in Square::ALL {
                    let f = feature(perspective, color, piece, square, false);
                    assert!(!seen[p][f]);
                    seen[p][f] = true;
                    // Mirrored, the same piece on the other wing's square.
                    let across = Square::new(square.file().flip(), square.rank());
                    assert_eq!(
                        feature(perspective, color, piece, square, true),
                        feature(perspective, color, piece, across, false)
                    );
                }
            }
        }
    }
    // White's own pawn on e2 is Black's own pawn on e7, seen from each side.
    assert_eq!(
        feature(Color::White, Color::White, Piece::Pawn, Square::E2, false),
        feature(Color::Black, Color::Black, Piece::Pawn, Square::E7, false)
    );
    assert_eq!(
        feature(Color::White, Color::White, Piece::Pawn, Square::A1, false),
        0
    );
    assert_eq!(
        feature(Color::White, Color::Black, Piece::King, Square::H8, false),
        INPUTS - 1
    );
}

#[test]
fn a_network_file_round_trips_and_bad_files_are_refused() {
    let net = random_network(4);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), network::FILE_BYTES);
    assert_eq!(
        bytes[4], 2,
        "a network of several output layers is of format 2"
    );
    assert!(Network::from_bytes(&bytes).unwrap() == net);
    assert_ne!(network::checksum(&bytes), network::checksum(&bytes[1..]));
    let mut truncated = bytes.clone();
    truncated.pop();
    assert!(
        Network::from_bytes(&truncated)
            .unwrap_err()
            .0
            .contains("bytes")
    );
    assert!(Network::from_bytes(b"NOPE").unwrap_err().0.contains("SLNN"));
    let mut other = bytes.clone();
    other[8] = 64;
    assert!(
        Network::from_bytes(&other)
            .unwrap_err()
            .0
            .contains("hidden")
    );
    let mut other = bytes.clone();
    other[4] = 4;
    let err = Network::from_bytes(&other).unwrap_err().0;
    assert!(err.contains("network format 4"), "{err}");
    let mirrored = Network {
        mirrored: true,
        ..net.clone()
    };
    let bytes = mirrored.to_bytes();
    assert_eq!(bytes[4], 3, "a mirrored network is of format 3");
    assert!(Network::from_bytes(&bytes).unwrap() == mirrored);
    let mut one = mirrored.clone();
    one.output = [one.output[0]; OUTPUT_BUCKETS];
    one.output_bias = [one.output_bias[0]; OUTPUT_BUCKETS];
    assert!(
        Network::from_bytes(&one.to_bytes()).unwrap() == one,
        "mirrored, one output layer"
    );
    let mut other = bytes.clone();
    let at = network::FILE_BYTES_ONE_OUTPUT - 2 * 2 * HIDDEN - 4;
    other[at] = 4;
    let err = Network::from_bytes(&other).unwrap_err().0;
    assert!(err.contains("4 output buckets"), "{err}");
}

/// A network of one output layer (generations 1 to 4) is written in format 1, reads back byte
/// for byte, and evaluates every bucket alike; format 2 gives each bucket its own layer.
#[test]
fn one_output_layer_is_format_one_and_buckets_read_by_piece_count() {
    let mut net = random_network(5);
    net.output = [net.output[0]; OUTPUT_BUCKETS];
    net.output_bias = [net.output_bias[0]; OUTPUT_BUCKETS];
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), network::FILE_BYTES_ONE_OUTPUT);
    assert_eq!(bytes[4], 1);
    let read = Network::from_bytes(&bytes).unwrap();
    assert!(read == net && read.has_one_output());
    assert_eq!(read.to_bytes(), bytes);
    // The shipped network (generation 5, of format 2) reads and writes back byte for byte too.
    let embedded = embedded();
    assert!(!embedded.has_one_output());
    assert_eq!(embedded.to_bytes(), embedded_bytes());
    // The bucket follows the number of pieces: 32 pieces the last, two kings the first.
    assert_eq!(output_bucket(32), OUTPUT_BUCKETS - 1);
    assert_eq!(output_bucket(30), OUTPUT_BUCKETS - 1);
    assert_eq!(output_bucket(29), OUTPUT_BUCKETS - 2);
    assert_eq!(output_bucket(5), 0);
    assert_eq!(output_bucket(2), 0);
    assert_eq!(output_bucket(6), 1);
    let mut net = random_network(6);
    let start = Board::default();
    let ending: Board = "4k3/8/8/8/8/8/3r4/1N2KQ2 w - - 0 1".parse().unwrap();
    let eval = |net: &Network, b: &Board| Accumulator::of(b, net).evaluate(net, b);
    let (start_before, ending_before) = (eval(&net, &start), eval(&net, &ending));
    net.output_bias[0] += 64 * 255;
    assert_eq!(
        eval(&net, &start),
        start_before,
        "the start is read by bucket 7"
    );
    assert_eq!(
        eval(&net, &ending),
        ending_before + 400,
        "five pieces: bucket 0"
    );
}

/// The i16/i32 output layer is the integer `Σ c² · w` exactly: against a sum in i64, at the
/// extremes the load-time bound allows and at random accumulators of any i16 value.
#[test]
fn the_output_layer_is_exact_within_the_weight_bound() {
    let reference = |net: &Network, us: &[i16; HIDDEN], them: &[i16; HIDDEN]| -> i64 {
        let half = |acc: &[i16; HIDDEN], weights: &[i16]| -> i64 {
            acc.iter()
                .zip(weights)
                .map(|(&a, &w)| {
                    let c = i64::from(a).clamp(0, 255);
                    c * c * i64::from(w)
                })
                .sum()
        };
        let sum = half(us, &net.output[3][..HIDDEN]) + half(them, &net.output[3][HIDDEN..]);
        (sum / 255 + i64::from(net.output_bias[3])) * 400 / (255 * 64)
    };
    let full = [i16::MAX; HIDDEN];
    for bound in [OUTPUT_WEIGHT_MAX, -OUTPUT_WEIGHT_MAX] {
        let mut net = Network::zeroed();
        net.output = [[bound; 2 * HIDDEN]; OUTPUT_BUCKETS];
        let cp = net.output_centipawns(&full, &full, 3);
        assert_eq!(cp, reference(&net, &full, &full));
        assert_eq!(
            cp,
            i64::from(bound.signum()) * 2 * HIDDEN as i64 * 255 * 128 * 400 / (255 * 64)
        );
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut net = Network::zeroed();
    for w in net.output.iter_mut().flatten() {
        *w = (rng.next_u32() % 257) as i16 - 128;
    }
    net.output_bias = [1234; OUTPUT_BUCKETS];
    net.output_bias[2] = -77;
    for _ in 0..1000 {
        let mut us = [0i16; HIDDEN];
        let mut them = [0i16; HIDDEN];
        us.iter_mut().for_each(|a| *a = rng.next_u32() as i16);
        them.iter_mut()
            .for_each(|a| *a = (rng.next_u32() % 400) as i16 - 50);
        assert_eq!(
            net.output_centipawns(&us, &them, 3),
            reference(&net, &us, &them)
        );
    }
}

/// A file whose output weight is outside ±`OUTPUT_WEIGHT_MAX` is refused by name (the output
/// layer's arithmetic would overflow), and one at the bound reads.
#[test]
fn an_output_weight_outside_the_bound_is_refused() {
    let mut net = Network::zeroed();
    net.output[0][5] = OUTPUT_WEIGHT_MAX;
    net.output[0][6] = -OUTPUT_WEIGHT_MAX;
    assert!(Network::from_bytes(&net.to_bytes()).is_ok());
    net.output[2][7] = -OUTPUT_WEIGHT_MAX - 1;
    let err = Network::from_bytes(&net.to_bytes()).unwrap_err().0;
    assert!(err.contains("output weight 7 of bucket 2 is -129"), "{err}");
}

/// The shipped network loads, its checksum is the one its provenance names, and it scores the
/// start position near equality and a queen up as winning.
#[test]
fn the_embedded_network_loads_and_matches_its_provenance() {
    let bytes = embedded_bytes();
    let sum = format!("{:016x}", checksum(bytes));
    assert_eq!(sum, EMBEDDED_CHECKSUM.trim());
    let provenance = include_str!("net/PROVENANCE.md");
    assert!(provenance.contains(&sum), "PROVENANCE.md names {sum}");
    assert!(bytes.len() < 1 << 20, "under 1 MB");
    let net = &*embedded();
    let eval = |fen: &str| {
        let board: Board = fen.parse().unwrap();
        Accumulator::of(&board, net).evaluate(net, &board)
    };
    assert!(eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").abs() < 150);
    assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 300);
}

/// A file with the right header and size whose input weights are random 16-bit values (or
/// whose hidden or output bias is beyond what `train` writes) is refused with the reason; a
/// network whose sums are extreme still evaluates below every mate score.
#[test]
fn weights_beyond_the_trainers_range_are_refused_and_evaluations_stay_below_mate() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut net = Network::zeroed();
    for row in net.input.iter_mut() {
        row.iter_mut().for_each(|w| *w = rng.next_u32() as i16);
    }
    let err = Network::from_bytes(&net.to_bytes()).unwrap_err().0;
    assert!(
        err.contains("input weight 0 (feature 0, neuron 0)"),
        "{err}"
    );
    let mut net = Network::zeroed();
    net.hidden_bias[3] = INPUT_WEIGHT_MAX + 1;
    let err = Network::from_bytes(&net.to_bytes()).unwrap_err().0;
    assert!(err.contains("hidden bias 3 is 506"), "{err}");
    let mut net = Network::zeroed();
    net.output_bias = [network::OUTPUT_BIAS_MAX + 1; OUTPUT_BUCKETS];
    let err = Network::from_bytes(&net.to_bytes()).unwrap_err().0;
    assert!(err.contains("output bias"), "{err}");
    // Every weight at its bound: the largest sums a valid file can give.
    let mut net = Network::zeroed();
    for row in net.input.iter_mut() {
        row.iter_mut().for_each(|w| *w = INPUT_WEIGHT_MAX);
    }
    net.hidden_bias
        .iter_mut()
        .for_each(|w| *w = INPUT_WEIGHT_MAX);
    for bucket in net.output.iter_mut() {
        bucket[..HIDDEN]
            .iter_mut()
            .for_each(|w| *w = OUTPUT_WEIGHT_MAX);
    }
    net.output_bias = [network::OUTPUT_BIAS_MAX; OUTPUT_BUCKETS];
    let net = Network::from_bytes(&net.to_bytes()).unwrap();
    let board = Board::default();
    let score = Accumulator::of(&board, &net).evaluate(&net, &board);
    assert!(score < crate::engine::score::MATE_BOUND, "{score}");
}

/// A configuration carries its network's weights from the moment it is made; a checksum read
/// back from a file resolves to a network this process holds (the embedded one here) or to
/// none, and a search of it is then refused by name, not a panic.
#[test]
fn a_network_named_by_checksum_resolves_or_is_refused_by_name() {
    let embedded_sum = checksum(embedded_bytes());
    let named = NetChoice::from_checksum(embedded_sum);
    assert!(std::sync::Arc::ptr_eq(
        named.weights().unwrap(),
        &embedded()
    ));
    assert_eq!(named, NetChoice::embedded());
    assert_eq!(named.checksum(), EMBEDDED_CHECKSUM.trim());
    // Written and read back, the same choice, by the same checksum.
    let text = serde_json::to_string(&named).unwrap();
    assert_eq!(text, format!("\"{embedded_sum:016x}\""));
    let back: NetChoice = serde_json::from_str(&text).unwrap();
    assert_eq!(back, named);
    assert!(back.weights().is_ok());
    // A checksum of no network here: no weights, and the reason names it.
    let stranger: NetChoice = serde_json::from_str("\"00000000deadbeef\"").unwrap();
    let why = stranger.weights().unwrap_err();
    assert!(
        why.contains("00000000deadbeef") && why.contains("net=PATH"),
        "{why}"
    );
    let config = crate::engine::config::SearchConfig {
        eval: crate::engine::eval::EvalKind::Nnue,
        net: stranger,
        limits: crate::engine::config::Limits::depth(1),
        ..Default::default()
    };
    let refused = crate::engine::search::search(
        crate::engine::position::Position::startpos(),
        config,
        &mut crate::engine::search::Silent,
    );
    assert_eq!(refused.err(), Some(why));
    // The default is the process's network, resolved, and not written in a header.
    let default = NetChoice::default();
    assert!(default.is_default() && default.weights().is_ok());
    assert_eq!(serde_json::to_string(&default).unwrap(), "null");
    assert!(default.pinned().weights().is_ok());
}

/// A position's mirror image, file for file (the FEN's ranks reversed; no castling rights).
fn mirror_image(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
    fields[0] = fields[0]
        .split('/')
        .map(|rank| rank.chars().rev().collect::<String>())
        .collect::<Vec<_>>()
        .join("/");
    fields.join(" ")
}

/// A mirrored network evaluates a position and its mirror image alike, whichever wing each
/// king is on; a network that reads the board as it stands tells them apart.
#[test]
fn a_mirrored_network_evaluates_a_mirror_image_alike() {
    let plain = random_network(6);
    let mirrored = Network {
        mirrored: true,
        ..plain.clone()
    };
    let eval = |net: &Network, fen: &str| {
        let board: Board = fen.parse().unwrap();
        Accumulator::of(&board, net).evaluate(net, &board)
    };
    for fen in [
        "r4rk1/ppp2ppp/2n5/8/8/5N2/PPP2PPP/2KR3R w - - 0 1",
        "2kr3r/pp3ppp/2n5/8/3P4/5N2/PP3PPP/R4RK1 b - - 0 1",
        "8/5k2/8/3p4/8/2K5/8/8 w - - 0 1",
    ] {
        let image = mirror_image(fen);
        assert_eq!(
            eval(&mirrored, fen),
            eval(&mirrored, &image),
            "{fen} and {image}"
        );
        assert_ne!(eval(&plain, fen), eval(&plain, &image), "{fen} and {image}");
    }
}
