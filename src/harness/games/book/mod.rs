//! What a match reads and writes as chess: the opening book (EPD or PGN), the games as PGN, the final positions as EPD.

pub mod epd_out;
pub mod openings;
pub mod pgn;
