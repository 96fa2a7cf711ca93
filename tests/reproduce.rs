//! `searchlab reproduce --quick`: both documents' tables from the start position, to depth 5
//! (quiescence) and 8 (killers). The node counts are this engine's signature for the two
//! tables: a change to search, evaluation or ordering shows here first.

use searchlab::harness::reproduce::{Options, Table, markdown::markdown, reproduce, write};

#[test]
fn quick_reproduction_of_both_tables() {
    let r = reproduce(&Options {
        quick: true,
        jobs: 2,
    })
    .unwrap();
    // 000: the horizon leaves equal perft(5) with and without quiescence, and quiescence
    // searched captures below them.
    for variant in ["minimax", "minimax-q"] {
        let row = r.ours(variant, 5).unwrap();
        assert_eq!(row.table, Table::Quiescence);
        assert_eq!(row.horizon, 4_865_609, "{variant}");
    }
    assert_eq!(r.ours("minimax", 5).unwrap().quiescence, 0);
    assert!(r.ours("minimax-q", 5).unwrap().quiescence > 0);
    assert!(r.ours("minimax", 6).is_none(), "--quick stops at depth 5");
    // 003: our node counts, and the killers' saving at depths 7 and 8.
    let nodes = |v: &str, d: u32| r.ours(v, d).unwrap().nodes;
    assert_eq!(nodes("ifrit-plain", 7), 11_457_765);
    assert_eq!(nodes("ifrit-killers", 7), 815_682);
    assert_eq!(nodes("ifrit-capture-killers", 7), 798_327);
    assert_eq!(nodes("ifrit-plain", 8), 93_399_112);
    assert_eq!(nodes("ifrit-killers", 8), 3_793_723);
    assert_eq!(nodes("ifrit-capture-killers", 8), 3_562_966);
    assert!(
        r.ours("ifrit-killers", 9).is_none(),
        "--quick stops at depth 8"
    );
    let md = markdown(&r);
    assert!(
        md.contains("| 8 | 93.399.112 / 27.470.423 | 3.793.723 / 3.150.324 | **24.62×** | 8.72× |"),
        "{md}"
    );
    assert!(md.contains("| 5 | 4.865.609 | 4.865.609 | yes |"));
    let dir = std::env::temp_dir().join(format!("searchlab-reproduce-{}", std::process::id()));
    write(&r, &dir).unwrap();
    let svg = std::fs::read_to_string(dir.join("killers.svg")).unwrap();
    assert!(svg.contains("ifrit-killers (Ifrit, document)"));
    assert!(svg.contains("depth (plies)"));
    let _ = std::fs::remove_dir_all(dir);
}
