//! The arguments of `go`: its limits and its `searchmoves`.

use crate::engine::config::{Clock, Limits, MOVE_OVERHEAD_MS};

/// Take `searchmoves m1 m2 ...` out of the arguments of `go`: the moves are the tokens after it
/// written as UCI moves (`e2e4`, `e7e8q`), up to the first that is not one.
pub(super) fn split_searchmoves<'a>(args: &[&'a str]) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut rest = Vec::new();
    let mut moves = Vec::new();
    let mut in_moves = false;
    for &token in args {
        if token == "searchmoves" {
            in_moves = true;
        } else if in_moves && looks_like_a_move(token) {
            moves.push(token);
        } else {
            in_moves = false;
            rest.push(token);
        }
    }
    (rest, moves)
}

/// Written as a UCI move: two squares and an optional promotion piece.
fn looks_like_a_move(token: &str) -> bool {
    let b = token.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"nbrq".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

/// Parse the arguments of `go` into limits for the side to move `us`.
pub fn parse_go(args: &[&str], us: cozy_chess::Color) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) = (None, None, 0, 0, None);
    let mut iter = args.iter();
    while let Some(&key) = iter.next() {
        let mut number = || -> Result<u64, String> {
            let text = iter
                .next()
                .ok_or_else(|| format!("go: '{key}' needs a value"))?;
            // Some GUIs send negative clock times when flagging; treat them as zero.
            if let Ok(n) = text.parse::<i64>() {
                return Ok(n.max(0) as u64);
            }
            Err(format!("go: bad value '{text}' for '{key}'"))
        };
        match key {
            "depth" => limits.depth = Some(number()?.clamp(1, 127) as u32),
            "nodes" => limits.nodes = Some(number()?.max(1)),
            "movetime" => limits.movetime_ms = Some(number()?),
            "wtime" => wtime = Some(number()?),
            "btime" => btime = Some(number()?),
            "winc" => winc = number()?,
            "binc" => binc = number()?,
            "movestogo" => movestogo = Some(number()?.clamp(1, 1000) as u32),
            "infinite" => limits.infinite = true,
            "ponder" => {}
            "mate" => limits.mate = Some(number()?.clamp(1, 63) as u32),
            "searchmoves" => return Err("go: 'searchmoves' needs moves".into()),
            _ => return Err(format!("go: unknown parameter '{key}'")),
        }
    }
    let (time, inc) = match us {
        cozy_chess::Color::White => (wtime, winc),
        cozy_chess::Color::Black => (btime, binc),
    };
    if let Some(time_ms) = time {
        limits.clock = Some(Clock {
            time_ms,
            inc_ms: inc,
            movestogo,
            overhead_ms: MOVE_OVERHEAD_MS,
        });
    }
    Ok(limits)
}
