//! Playing the games: the players (variants and UCI engines), one game with its adjudication,
//! the scheduler of pairs, and the results file every pair is appended to, with the
//! yardstick's readings.

pub mod adjudication;
pub mod game;
pub mod play;
pub mod player;
pub mod record;
pub mod speeds;
