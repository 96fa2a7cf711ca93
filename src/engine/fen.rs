//! Reading a position from text: `startpos` or a FEN, the same for every command.

use cozy_chess::Board;

/// Read `startpos` or a FEN.
pub fn parse_position(text: &str) -> Result<Board, String> {
    let text = text.trim();
    if text == "startpos" {
        return Ok(Board::default());
    }
    // An EPD-style FEN without move counters gets "0 1".
    let fields = text.split_whitespace().count();
    let completed = match fields {
        4 => format!("{text} 0 1"),
        5 => format!("{text} 1"),
        _ => text.to_string(),
    };
    Board::from_fen(&completed, false).map_err(|e| {
        let hint = if text.split_whitespace().count() < 4 {
            " (a FEN has at least 4 fields: quote it as one argument)"
        } else {
            ""
        };
        format!("invalid position '{text}': {e}{hint}")
    })
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
}
