//! `searchlab reproduce --quick`: both documents' tables from the start position, to depth 5
//! (quiescence) and 7 (killers), with four shuffled quiet orders. The node counts are this
//! engine's signature for the two tables: a change to search, evaluation or ordering shows
//! here first.

use searchlab::harness::report::reproduction::write;
use searchlab::harness::reproduce::{
    FULL_EVAL, Options, SCRATCH_LEAF, SHUFFLED, Table, markdown::markdown, reproduce,
};

#[test]
fn quick_reproduction_of_both_tables() {
    let r = reproduce(&Options {
        quick: true,
        jobs: 2,
        shuffles: 4,
        deep_shuffles: 0,
    })
    .unwrap();
    // 000: the horizon leaves equal perft(5) in every form, with and without quiescence, and
    // quiescence searched captures below them. A leaf from scratch changes no count.
    let full = format!("minimax-q{FULL_EVAL}");
    for variant in ["minimax", "minimax-q", full.as_str()] {
        let row = r.ours(variant, 5).unwrap();
        assert_eq!(row.table, Table::Quiescence);
        assert_eq!(row.horizon, 4_865_609, "{variant}");
    }
    for variant in ["minimax", "minimax-q"] {
        let scratch = r.ours(&format!("{variant}{SCRATCH_LEAF}"), 5).unwrap();
        let incremental = r.ours(variant, 5).unwrap();
        assert_eq!(
            (scratch.nodes, scratch.score_cp),
            (incremental.nodes, incremental.score_cp)
        );
    }
    assert_eq!(r.ours("minimax", 5).unwrap().quiescence, 0);
    assert!(r.ours("minimax-q", 5).unwrap().quiescence > 0);
    assert_eq!(r.ours("minimax-q", 5).unwrap().score_cp, 0, "material only");
    assert!(r.ours("minimax", 6).is_none(), "--quick stops at depth 5");
    // 003 in Ifrit's convention (horizon leaves) and in ours (every node), both forms.
    let leaves = |v: &str| r.ours(v, 7).unwrap().horizon;
    assert_eq!(leaves("ifrit-plain"), 529_801);
    assert_eq!(leaves("ifrit-killers"), 325_598);
    assert_eq!(leaves("ifrit-capture-killers"), 325_406);
    let full_nodes = |v: &str| r.ours(&format!("{v}{FULL_EVAL}"), 7).unwrap().nodes;
    assert_eq!(full_nodes("ifrit-plain"), 11_457_765);
    assert_eq!(full_nodes("ifrit-killers"), 815_682);
    assert_eq!(full_nodes("ifrit-capture-killers"), 798_327);
    assert!(
        r.ours("ifrit-killers", 8).is_none(),
        "--quick stops at depth 7"
    );
    // Four shuffled orders of each configuration, reproducible by seed.
    for preset in ["ifrit-plain", "ifrit-killers", "ifrit-capture-killers"] {
        let rows = r.shuffled(preset, 7);
        assert_eq!(
            rows.iter().map(|x| x.seed).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert!(rows.iter().all(|x| x.variant.ends_with(SHUFFLED)));
    }
    let md = markdown(&r);
    assert!(
        md.contains(
            "| 7 | sensitivity: full evaluation | 7.546.901 | 599.647 | 12.59× | 590.359 | 12.78× |"
        ),
        "{md}"
    );
    assert!(
        md.contains(
            "| 7 | sensitivity: full evaluation, 4 shuffled orders: median [min – max] | 2.789.281 "
        ),
        "{md}"
    );
    assert!(md.contains("| 5 | 4.865.609 / 4.865.609 / 4.865.609 | 4.865.609 | yes |"));
    let dir = std::env::temp_dir().join(format!("searchlab-reproduce-{}", std::process::id()));
    write(&r, &dir).unwrap();
    let svg = std::fs::read_to_string(dir.join("killers.svg")).unwrap();
    assert!(svg.contains("ifrit-killers (Ifrit, document)"));
    assert!(svg.contains("depth (plies)"));
    let _ = std::fs::remove_dir_all(dir);
}
