//! `--epdout FILE` (fastchess's `-epdout`): the final position of every game, one EPD line
//! each, in the planned order, so a user can look at where games ended (or seed a book).

use std::fmt::Write;

use crate::harness::epd;
use crate::harness::games::playing::record::PairRecord;

/// The EPD line of each game's final position: its four FEN fields, the game's place and
/// result. A record that does not replay (a damaged file) is named, not skipped silently.
pub fn lines(pairs: &[&PairRecord]) -> String {
    let mut out = String::new();
    for pair in pairs {
        for (k, game) in pair.games.iter().enumerate() {
            let mut board = pair.opening.board();
            let moves = pair
                .opening
                .moves
                .iter()
                .chain(game.moves.iter().map(|m| &m.mv));
            let mut replayed = true;
            for text in moves {
                match epd::parse_move(&board, text) {
                    Ok(mv) => board.play_unchecked(mv),
                    Err(_) => {
                        replayed = false;
                        break;
                    }
                }
            }
            let fen = board.to_string();
            let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
            let _ = writeln!(
                out,
                "{} id \"{} vs {}, pair {}, game {}\"; c0 \"{}{}\";",
                fields.join(" "),
                game.white,
                game.black,
                pair.index + 1,
                k + 1,
                game.result,
                if replayed {
                    ""
                } else {
                    ", the record stops replaying here"
                }
            );
        }
    }
    out
}
