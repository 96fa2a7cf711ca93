//! Games between variants and external engines: `searchlab match` and `searchlab sprt`.

pub mod adjudication;
pub mod charts;
pub mod control;
pub mod effort;
pub mod elo;
pub mod epd_out;
pub mod game;
pub mod levels;
pub mod limit_check;
pub mod openings;
pub mod pgn;
pub mod play;
pub mod player;
pub mod record;
pub mod reference_speed;
pub mod report;
pub mod stats;
pub mod tally;
