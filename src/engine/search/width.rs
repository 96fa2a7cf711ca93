//! The search's side of `run --width` (`engine/width.rs`): where the tally is filled. Each
//! call does nothing unless the width was asked for, and nothing inside an audit search.

use super::Searcher;
use super::gate::Point;
use crate::engine::heuristics::view::{MoveView, NodeView};
use crate::engine::stats::Counter;
use crate::engine::width::WidthCounts;

impl Searcher {
    /// Record the tree's width by remaining depth from now on.
    pub fn enable_width(&mut self) {
        self.width = Some(Box::default());
    }

    /// The tally, when it is being filled here (not inside an audit search).
    #[inline]
    pub(super) fn width(&mut self) -> Option<&mut WidthCounts> {
        if self.audit.searching {
            return None;
        }
        self.width.as_deref_mut()
    }

    /// A decision counted by the gate, at the depth of the node it stands in (decisions whose
    /// point names no node, the table's and the reductions', are recorded where they are
    /// taken).
    #[inline]
    pub(super) fn width_decision(&mut self, counter: Counter, at: &Point, fired: bool) {
        let depth = match at {
            Point::Node { node, .. } | Point::Unmade { node, .. } | Point::Made { node, .. } => {
                node.depth
            }
            Point::Capture { .. } | Point::Settled | Point::Unaudited => return,
        };
        if let Some(width) = self.width() {
            width.decided(counter, depth, fired);
        }
    }

    /// A node counted at `depth` ended, an expected cut node or not, its result at beta or
    /// above or not.
    #[inline]
    pub(super) fn width_result(&mut self, depth: i32, cut_node: bool, failed_high: bool) {
        if let Some(width) = self.width() {
            width.node_result(depth, cut_node, failed_high);
        }
    }

    /// A move of `node` was searched, reduced by `reduction` plies (0: at full depth), and
    /// searched again at full depth when `researched`.
    #[inline]
    pub(super) fn width_searched(
        &mut self,
        node: &NodeView,
        mv: &MoveView,
        reduction: i32,
        researched: bool,
    ) {
        if let Some(width) = self.width() {
            width.searched(node.depth, mv.legal_count, reduction, researched);
        }
    }
}
