//! The NNUE's data and training, ours end to end: `datagen` plays self-play games and writes
//! scored positions (`format`: the bulletformat layout); `train` fits a network to them.

pub mod datagen;
pub mod format;
