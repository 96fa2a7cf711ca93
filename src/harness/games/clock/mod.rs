//! The limits a game is played under: the time control and its adjudication margins, a clock scaled to a reference speed, a limit given as levels, and the check that an engine honours its limit.

pub mod control;
pub mod levels;
pub mod limit_check;
pub mod reference_speed;
