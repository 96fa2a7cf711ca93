//! NNUE: an efficiently updatable neural network evaluation (Yu Nasu, 2018; the form Stockfish
//! adopted in 2020 and most engines of the field use since), ours end to end: inference here,
//! data generation and training in the harness.
//!
//! The architecture is the community's common first net, `(768 → H) × 2 → 1`:
//! - **Inputs**: 768 = 2 colours × 6 piece types × 64 squares, one per piece on the board, seen
//!   from each side (`feature`): "ours" and "theirs" relative to the perspective, the board
//!   mirrored vertically for Black, so one set of weights serves both sides; in a mirrored
//!   network (format 3) also file for file where the perspective's king is on the e to h
//!   files (`flips`), so one set serves a king on either wing.
//! - **Accumulator**: each perspective's hidden layer of `HIDDEN` sums, kept up to date move by
//!   move (`Accumulator::after` adds and subtracts only the rows of the pieces that moved).
//! - **Output**: SCReLU (`clamp(x, 0, 1)²`) of the side to move's accumulator then the other
//!   side's, a dot product with `2·HIDDEN` weights, plus a bias; a net may have one such output
//!   layer or one per bucket of the number of pieces on the board (`OUTPUT_BUCKETS`).
//!
//! Quantised as bullet's reference nets are (facts of the format, not its code): the hidden
//! layer in units of `QA = 255`, the output weights in units of `QB = 64`, and the output scaled
//! by `SCALE = 400` centipawns per unit, so a float net trained on `sigmoid(cp / 400)` targets
//! reads in centipawns. The integer arithmetic is exact and deterministic.

mod accumulator;
mod choice;
mod features;
pub mod network;

pub use accumulator::Accumulator;
pub use choice::{
    EMBEDDED_CHECKSUM, NetChoice, embedded, embedded_bytes, read_file, replaced_default_checksum,
    set_default,
};
pub use features::{HIDDEN, INPUTS, OUTPUT_BUCKETS, QA, QB, SCALE, feature, flips, output_bucket};
pub use network::{
    CHECKSUM_START, FILE_BYTES, FORMAT_MAGIC, INPUT_WEIGHT_MAX, Network, NetworkError,
    OUTPUT_WEIGHT_MAX, checksum, checksum_on,
};

#[cfg(test)]
mod tests;
