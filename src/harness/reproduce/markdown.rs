//! `reproduction.md`: our rows beside Ifrit's in the documents' column format, then the ratios
//! that carry over between engines, every number taken from the [`Reproduction`].

use super::data::{Reproduction, Row, Table, startpos_perft};
use crate::engine::notation;
use crate::harness::format::document_number;
use crate::harness::format::mm_ss;
use std::time::Duration;

const QUIESCENCE_VARIANTS: [(&str, &str); 2] = [
    (
        "minimax",
        "Without quiescence (`minimax`: full width, horizon returns the evaluation)",
    ),
    (
        "minimax-q",
        "With quiescence (`minimax-q`: captures only at the horizon)",
    ),
];

const KILLER_VARIANTS: [(&str, &str); 3] = [
    (
        "ifrit-plain",
        "Plain alpha-beta, no sorting (`ifrit-plain`)",
    ),
    (
        "ifrit-killers",
        "Alpha-beta, no sorting, two killers (`ifrit-killers`)",
    ),
    (
        "ifrit-capture-killers",
        "Best capture first (MVV/LVA), then the killers (`ifrit-capture-killers`)",
    ),
];

fn ours_line(r: &Row) -> String {
    document_line(
        r.depth,
        r.seldepth,
        r.time_ms / 1000.0,
        r.document_nodes(),
        r.nps,
        r.score_cp,
        &r.pv,
    )
}

fn blocks(r: &Reproduction, table: Table, variants: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (variant, title) in variants {
        out.push_str(&format!("{title}:\n\n```\n"));
        let mut depths: Vec<u32> = r
            .rows
            .iter()
            .filter(|x| x.table == table && x.variant == *variant)
            .map(|x| x.depth)
            .chain(
                r.document
                    .iter()
                    .filter(|x| x.variant == *variant)
                    .map(|x| x.depth),
            )
            .collect();
        depths.sort_unstable();
        depths.dedup();
        for depth in depths {
            match r.ours(variant, depth) {
                Some(row) => out.push_str(&format!("searchlab  {}\n", ours_line(row))),
                None => out.push_str(&format!("searchlab  {depth}/-    (not searched)\n")),
            }
            match r.theirs(variant, depth) {
                Some(d) => out.push_str(&format!(
                    "Ifrit      {}\n",
                    document_line(
                        d.depth,
                        d.seldepth,
                        d.time_s as f64,
                        d.nodes,
                        d.nps,
                        d.score_cp,
                        if d.pv.is_empty() {
                            "(no PV printed)"
                        } else {
                            &d.pv
                        }
                    )
                )),
                None => out.push_str(&format!("Ifrit      {depth}/-    (no such row)\n")),
            }
        }
        out.push_str("```\n\n");
    }
    out
}

fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 {
        format!("{:.2}×", a / b)
    } else {
        "-".into()
    }
}

fn quiescence_table(r: &Reproduction) -> String {
    let mut out = String::from(
        "| depth | horizon leaves (ours) | perft | leaves = perft | quiescence nodes per leaf (ours) | time without / with quiescence (ours) | time ratio with/without (ours) | time ratio (Ifrit) | score without / with (ours) | score without / with (Ifrit) |\n\
         |---:|---:|---:|:---:|---:|---|---:|---:|---|---|\n",
    );
    for depth in 5..=6 {
        let (Some(plain), Some(q)) = (r.ours("minimax", depth), r.ours("minimax-q", depth)) else {
            continue;
        };
        let perft = startpos_perft(depth).unwrap_or(0);
        let ifrit = match (r.theirs("minimax", depth), r.theirs("minimax-q", depth)) {
            (Some(a), Some(b)) => (
                ratio(b.time_s as f64, a.time_s as f64),
                format!(
                    "{} / {}",
                    document_score(a.score_cp),
                    document_score(b.score_cp)
                ),
            ),
            _ => ("-".into(), "-".into()),
        };
        out.push_str(&format!(
            "| {depth} | {} | {} | {} | {:.2} | {:.1} s / {:.1} s | {} | {} | {} / {} | {} |\n",
            document_number(plain.horizon),
            document_number(perft),
            if plain.horizon == perft && q.horizon == perft {
                "yes"
            } else {
                "**no**"
            },
            q.quiescence as f64 / q.horizon.max(1) as f64,
            plain.time_ms / 1000.0,
            q.time_ms / 1000.0,
            ratio(q.time_ms, plain.time_ms),
            ifrit.0,
            document_score(plain.score_cp),
            document_score(q.score_cp),
            ifrit.1,
        ));
    }
    out
}

fn killer_table(r: &Reproduction) -> String {
    let mut out = String::from(
        "| depth | ifrit-plain nodes (ours / Ifrit) | ifrit-killers nodes (ours / Ifrit) | killers: plain ÷ killers (ours) | (Ifrit) | ifrit-capture-killers nodes (ours / Ifrit) | capture-killers: plain ÷ it (ours) | (Ifrit) |\n\
         |---:|---|---|---:|---:|---|---:|---:|\n",
    );
    let nodes = |v: &str, d: u32| r.ours(v, d).map(|x| x.nodes as f64);
    let doc = |v: &str, d: u32| r.theirs(v, d).map(|x| x.nodes as f64);
    let pair = |v: &str, d: u32| {
        format!(
            "{} / {}",
            nodes(v, d).map_or("-".into(), |n| document_number(n as u64)),
            doc(v, d).map_or("-".into(), |n| document_number(n as u64))
        )
    };
    let ratio_of = |num: Option<f64>, den: Option<f64>| match (num, den) {
        (Some(a), Some(b)) => ratio(a, b),
        _ => "-".into(),
    };
    for depth in 7..=9 {
        if r.rows
            .iter()
            .all(|x| x.table != Table::Killers || x.depth != depth)
        {
            continue;
        }
        out.push_str(&format!(
            "| {depth} | {} | {} | **{}** | {} | {} | **{}** | {} |\n",
            pair("ifrit-plain", depth),
            pair("ifrit-killers", depth),
            ratio_of(nodes("ifrit-plain", depth), nodes("ifrit-killers", depth)),
            ratio_of(doc("ifrit-plain", depth), doc("ifrit-killers", depth)),
            pair("ifrit-capture-killers", depth),
            ratio_of(
                nodes("ifrit-plain", depth),
                nodes("ifrit-capture-killers", depth)
            ),
            ratio_of(
                doc("ifrit-plain", depth),
                doc("ifrit-capture-killers", depth)
            ),
        ));
    }
    if let (Some(k9), Some(p8)) = (nodes("ifrit-killers", 9), nodes("ifrit-plain", 8)) {
        out.push_str(&format!(
            "\n003's \"whole half-move\": depth 9 with killers costs {} nodes against {} for depth 8 \
             without, a ratio of {:.2} (Ifrit: {}).\n",
            document_number(k9 as u64),
            document_number(p8 as u64),
            k9 / p8,
            ratio_of(doc("ifrit-killers", 9), doc("ifrit-plain", 8)).replace('×', ""),
        ));
    }
    out
}

/// `+1,19`: pawns with the documents' decimal comma.
pub fn document_score(cp: i32) -> String {
    notation::pawns(cp).replace('.', ",")
}

/// A row in the documents' column format:
/// `depth/seldepth  time(mm:ss)  nodes  nodes-per-second  score(pawns)  PV`.
pub fn document_line(
    depth: u32,
    seldepth: u32,
    seconds: f64,
    nodes: u64,
    nps: u64,
    score_cp: i32,
    pv: &str,
) -> String {
    format!(
        "{:<6} {}  {:>12}  {:>9}  {:>6}  {}",
        format!("{depth}/{seldepth}"),
        mm_ss(Duration::from_secs_f64(seconds)),
        document_number(nodes),
        document_number(nps),
        document_score(score_cp),
        pv
    )
    .trim_end()
    .to_string()
}

/// The whole document.
pub fn markdown(r: &Reproduction) -> String {
    let mut out = format!(
        "# Reproduction of the documents' tables — start position · {}\n\n",
        &r.date[..r.date.len().min(10)]
    );
    out.push_str(&format!(
        "`searchlab reproduce{}` at commit {} on {} cores, {} searches side by side (times are \
         those of searches sharing the machine), {:.0} s wall time. Columns as the documents \
         print them: `depth/seldepth  time(mm:ss)  nodes  nodes-per-second  score(pawns)  PV`, \
         with the documents' thousands separator (.) and decimal comma. Our times and nodes are \
         each iteration's own; `reproduction.json` holds every number below.\n\n",
        if r.options.quick { " --quick" } else { "" },
        r.commit.as_deref().unwrap_or("unknown"),
        r.cores,
        r.options.jobs,
        r.wall_s,
    ));
    out.push_str(
        "## Quiescence (000): full-width minimax, no alpha-beta\n\n\
         Node counts are leaves at the horizon; they must equal perft(5) and perft(6) exactly.\n\n",
    );
    out.push_str(&blocks(r, Table::Quiescence, &QUIESCENCE_VARIANTS));
    out.push_str(&quiescence_table(r));
    out.push_str(
        "\n![Quiescence: time by depth](quiescence.svg)\n\n\
         ## Killers (003, Ifrit b2.5): alpha-beta with quiescence\n\n\
         Node counts are every node of the iteration.\n\n",
    );
    out.push_str(&blocks(r, Table::Killers, &KILLER_VARIANTS));
    out.push_str(&killer_table(r));
    out.push_str("\n![Killers: nodes by depth](killers.svg)\n\n");
    out.push_str(DIFFERENCES);
    out
}

/// Why our numbers differ from Ifrit's (kept with the table so the two never part).
const DIFFERENCES: &str = "## Where we differ from the documents, and why\n\n\
- **Horizon leaves** equal perft exactly in both quiescence rows, as in 000.\n\
- **Quiescence costs more here than in Ifrit** (time ratio above, against Ifrit's 2–2.5×). \
Without quiescence our horizon leaf is only a `make` with an incremental evaluation, so the \
baseline is cheap. With it, every leaf must generate captures. Our stand pat is also the full \
evaluation (`quiescence.eval=full`, the default) rather than material alone: 000 says material, \
but its printed scores (+0,26, +0,12) cannot come from material alone, which scores every quiet \
line 0. Piece-square terms make more captures worth trying, so the searches see one to three \
quiescence nodes per leaf. `minimax-q,quiescence.eval=material` runs the literal reading.\n\
- **Scores and PVs differ** because the evaluations differ: Ifrit's is not published, and ours \
is Michniewski's simplified evaluation. The horizon effect still shows without quiescence. The \
score swings between depths 5 and 6, and the PV may end in a capture nobody answers.\n\
- **Killer ratios are larger than Ifrit's** at depths 7 and 8. Our unsorted baseline is worse \
than Ifrit's: both generators put captures first, but among quiet moves cozy-chess lists pawn \
moves first, so plain alpha-beta tries a2a3-style lines first. The worse the baseline's order, \
the more the killers recover. The claim that carries over holds: killers save about a whole \
half-move.\n";
