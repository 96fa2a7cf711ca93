//! Games between variants and external engines: `searchlab match` and `searchlab sprt`.
//!
//! Four rooms (fastchess splits the same job alike): `book` (openings, PGN, EPD out), `clock`
//! (time controls, the reference speed, levels, limit checks), `playing` (players, a game, the
//! scheduler, the results file) and `rating` (Elo, SPRT, tallies, goals). A match's report is
//! rendered in `harness/report/matches/`, with every other report.

pub mod book;
pub mod clock;
pub mod playing;
pub mod rating;
