//! Reading a position from text, one reader for the CLI, UCI and EPD files alike: `startpos`,
//! a FEN, or an EPD-style FEN of four fields.
//!
//! It accepts what the FEN standard and python-chess accept and cozy-chess alone does not: a
//! halfmove clock above 100 (legal up to the 75-move rule), a fullmove number of 0, four-field
//! FENs, and Shredder/X-FEN castling (`AHah`). It refuses what is not a position, which
//! cozy-chess lets through: a board of fewer or more than 8 ranks, or a rank of other than 8
//! squares.

use cozy_chess::Board;

/// Read `startpos` or a FEN.
pub fn parse_position(text: &str) -> Result<Board, String> {
    let text = text.trim();
    if text == "startpos" {
        return Ok(Board::default());
    }
    parse_fen(text).map_err(|e| {
        let hint = if text.split_whitespace().count() < 4 {
            " (a FEN has at least 4 fields: quote it as one argument)"
        } else {
            ""
        };
        format!("invalid position '{text}': {e}{hint}")
    })
}

/// Read a FEN of 4 to 6 fields (missing counters are `0 1`). The error says what is wrong.
pub fn parse_fen(text: &str) -> Result<Board, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(format!(
            "a FEN has 4 to 6 fields (placement, side, castling, en passant, halfmove clock, fullmove number), found {}",
            fields.len()
        ));
    }
    check_placement(fields[0])?;
    let number = |index: usize, default: u32, what: &str| -> Result<u32, String> {
        fields.get(index).map_or(Ok(default), |text| {
            text.parse()
                .map_err(|_| format!("the {what} '{text}' is not a number"))
        })
    };
    let halfmove = number(4, 0, "halfmove clock")?;
    let fullmove = number(5, 1, "fullmove number")?;
    // cozy-chess stores at most 100 plies: past it the fifty-move rule already applies, which
    // is all the search asks of the clock. A fullmove number of 0 means the first move.
    let normalized = format!(
        "{} {} {} {} {} {}",
        fields[0],
        fields[1],
        fields[2],
        fields[3],
        halfmove.min(100),
        fullmove.max(1)
    );
    Board::from_fen(&normalized, false)
        .or_else(|standard| Board::from_fen(&normalized, true).map_err(|_| standard))
        .map_err(|e| e.to_string())
}

/// The placement field: 8 ranks of 8 squares each.
fn check_placement(placement: &str) -> Result<(), String> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "the board has {} rank(s); a FEN gives 8, separated by '/'",
            ranks.len()
        ));
    }
    for (index, rank) in ranks.iter().enumerate() {
        let mut squares = 0;
        for c in rank.chars() {
            squares += match c {
                '1'..='8' => c as u32 - '0' as u32,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => 1,
                _ => {
                    return Err(format!(
                        "rank {}: '{c}' is not a piece or a count",
                        8 - index
                    ));
                }
            };
        }
        if squares != 8 {
            return Err(format!(
                "rank {} has {squares} squares; a rank has 8",
                8 - index
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_fens_and_epd_style_fens() {
        assert_eq!(parse_position("startpos").unwrap(), Board::default());
        let epd = parse_position("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
        assert_eq!(
            epd,
            parse_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap()
        );
        let err = parse_position("4k3/8/8/8/8/8/8/4K3").unwrap_err();
        assert!(err.contains("quote it as one argument"), "{err}");
    }

    #[test]
    fn what_the_fen_standard_accepts_is_accepted() {
        let late = parse_fen("r3k3/8/8/8/8/8/8/4K2R w - - 150 200").unwrap();
        assert_eq!(
            late.halfmove_clock(),
            100,
            "the clock is capped, not refused"
        );
        parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 0").unwrap();
        let shredder = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1").unwrap();
        let standard = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(shredder, standard);
    }

    #[test]
    fn what_is_not_a_position_is_refused() {
        let short = parse_fen("4k3/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
        assert!(short.contains("7 rank(s)"), "{short}");
        let two = parse_fen("4K3/4k3 w - - 0 1").unwrap_err();
        assert!(two.contains("2 rank(s)"), "{two}");
        let wide = parse_fen("4k4/8/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
        assert!(wide.contains("rank 8 has 9 squares"), "{wide}");
        let piece = parse_fen("4x3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
        assert!(piece.contains("'x'"), "{piece}");
        assert!(parse_fen("4k3/8/8/8/8/8/8/4K3 w - - x 1").is_err());
        assert!(parse_fen("4k3/8/8/8/8/8/8/4K3 w").is_err());
    }
}
