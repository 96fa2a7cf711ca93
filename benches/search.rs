//! Throughput benches: perft leaves per second and search nodes per second, both reported by
//! criterion as elements per second (`Throughput::Elements`). Compare ratios measured side by
//! side in one run, never absolute times (the machines are shared).

use std::hint::black_box;

use cozy_chess::Board;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use searchlab::engine::config::{Algorithm, Limits, SearchConfig};
use searchlab::engine::perft::perft;
use searchlab::engine::position::Position;
use searchlab::engine::search::{Silent, search};
use searchlab::harness::bench;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, fen, depth) in [("startpos", None, 5), ("kiwipete", Some(KIWIPETE), 4)] {
        let board: Board = fen.map_or_else(Board::default, |f| f.parse().unwrap());
        group.throughput(Throughput::Elements(perft(&board, depth)));
        group.bench_function(format!("{name}/{depth}"), |b| {
            b.iter(|| perft(black_box(&board), black_box(depth)))
        });
    }
    group.finish();
}

fn search_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);

    // Full-width minimax: every node evaluated, so this is the make/eval/picker speed.
    let minimax = SearchConfig {
        algorithm: Algorithm::Minimax,
        limits: Limits::depth(4),
        ..SearchConfig::default()
    };
    let nodes = search(Position::startpos(), minimax.clone(), &mut Silent)
        .expect("the default configuration holds its network")
        .stats
        .nodes();
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("minimax/startpos/4", |b| {
        b.iter(|| {
            search(
                black_box(Position::startpos()),
                minimax.clone(),
                &mut Silent,
            )
        })
    });

    // The bench suite at depth 4 (a quicker cut of `searchlab bench`).
    let positions = bench::bench_positions();
    let nodes = bench::run(&positions, 4, SearchConfig::default(), None, |_| {})
        .expect("the default configuration holds its network")
        .nodes();
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("alphabeta/bench-suite/4", |b| {
        b.iter(|| {
            bench::run(
                black_box(&positions),
                4,
                SearchConfig::default(),
                None,
                |_| {},
            )
        })
    });
    group.finish();
}

criterion_group!(benches, perft_benches, search_benches);
criterion_main!(benches);
