//! The line from the root to the node being searched: one frame per ply with what the search
//! knows of how it reached that node, and the modes the line is in (under a null move, inside a
//! 002 verification, in `main_selective`'s main function).

use crate::engine::score::{MAX_PLY, Score};

/// Per-ply facts about a node on the current line.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Frame {
    /// The move into the node was extended.
    pub extended: bool,
    /// The move into the node was a capture.
    pub entered_by_capture: bool,
    /// The move into the node was a null move.
    pub after_null_move: bool,
    /// The node's static evaluation, `None` in check or before the node has read it (read two
    /// plies later: is the side to move's position improving?).
    pub static_eval: Option<Score>,
    /// Moves on the line to this node that singular extension extended by two plies.
    pub double_extensions: u8,
    /// The node is an expected cut node: searched in a null window by a reduced search of a
    /// late move, or by a full-depth one where its parent was an expected all node (set by the
    /// parent before each search of the child, `Searcher::search_child`; false elsewhere).
    pub cut_node: bool,
}

impl Frame {
    /// The frame of the node this node's move enters: `capture`, `extended`, and by two plies
    /// (`doubled`), which the line's count keeps.
    pub fn child(&self, capture: bool, extended: bool, doubled: bool) -> Self {
        Frame {
            extended,
            entered_by_capture: capture,
            double_extensions: self.double_extensions + u8::from(doubled),
            ..Frame::default()
        }
    }
}

/// The current line.
pub(super) struct Line {
    pub frames: Box<[Frame; MAX_PLY + 1]>,
    /// Null moves on the line.
    pub null_depth: usize,
    /// 002 signal verification searches on the line (`verify.rs`).
    pub verification_depth: usize,
    /// The nodes are searched by the selective function: every pruning and reduction takes
    /// part. False only in `main_selective`'s main function (002), which the root enters when
    /// that heuristic is on and which leaves them out; the main function's quiescence search
    /// is the selective one's.
    pub selective: bool,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            frames: Box::new([Frame::default(); MAX_PLY + 1]),
            null_depth: 0,
            verification_depth: 0,
            selective: true,
        }
    }
}
