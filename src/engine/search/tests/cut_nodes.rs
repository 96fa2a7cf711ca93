//! Expected cut nodes (`NodeView::cut_node`): which children the search enters as such, and
//! LMR's term that reads them.

use super::*;

/// The width tally counted over one search of `fen` to `depth` under `spec`.
fn width_of(fen: &str, spec: &str, depth: u32) -> crate::engine::width::WidthTally {
    let with = Instruments {
        audit: None,
        width: true,
    };
    search_instrumented(position(fen), with_spec(spec, depth), with, &mut Silent)
        .unwrap()
        .width
        .expect("asked for")
}

/// The premise of the cut-node term: the nodes the search expects to cut (a late move's reduced
/// child, the full-depth child of an expected all node) fail high far more often than the
/// other interior nodes, by a node pruning or the move loop. Were the flag set on the wrong
/// children, or inverted, the expected cut nodes would fail high no more often than the rest.
#[test]
fn expected_cut_nodes_fail_high_more_often_than_the_others() {
    let mut rates = Vec::new();
    for fen in [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let width = width_of(fen, "modern", 9);
        let sum = |v: &Vec<u64>| v.iter().sum::<u64>();
        let (cut, cut_highs) = (sum(&width.cut_nodes), sum(&width.cut_node_fail_highs));
        let (others, others_highs) = (sum(&width.nodes) - cut, sum(&width.fail_highs) - cut_highs);
        assert!(
            cut > 1000 && others > 1000,
            "{fen}: {cut} and {others} nodes"
        );
        let cut_rate = cut_highs as f64 / cut as f64;
        let others_rate = others_highs as f64 / others as f64;
        assert!(
            cut_rate > others_rate + 0.2,
            "{fen}: expected cut nodes fail high {cut_rate:.3}, the others {others_rate:.3}"
        );
        rates.push((cut_rate, others_rate));
    }
    eprintln!("fail-high rates, expected cut nodes against the others: {rates:?}");
}

/// `lmr.cut_node` reduces more at expected cut nodes: another tree, the same on every run; off
/// (the default) the tree is the default's.
#[test]
fn the_cut_node_term_changes_the_tree_reproducibly() {
    let nodes = |spec: &str| nodes_of(ITALIAN, spec, 8);
    let default = nodes("modern");
    assert_eq!(nodes("modern,lmr.cut_node=0"), default);
    let more = nodes("modern,lmr.cut_node=2");
    assert_ne!(more, default);
    assert_eq!(nodes("modern,lmr.cut_node=2"), more);
}
