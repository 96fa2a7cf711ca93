//! The NNUE's data and training, ours end to end: `datagen` plays self-play games and writes
//! scored positions (`format`: the bulletformat layout); `train` fits the float network
//! (`model`) to them and writes the quantised one the engine reads.

pub mod datagen;
pub mod format;
pub mod merge;
pub mod model;
pub mod train;
