//! Games between variants and external engines: `searchlab match` and `searchlab sprt`.
//!
//! Five rooms (fastchess splits the same job alike): `book` (openings, PGN, EPD out), `clock`
//! (time controls, the reference speed, levels, limit checks), `playing` (players, a game, the
//! scheduler, the results file), `rating` (Elo, SPRT, tallies) and `reporting` (the report and
//! its charts).

pub mod book;
pub mod clock;
pub mod playing;
pub mod rating;
pub mod reporting;
