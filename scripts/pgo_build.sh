#!/bin/sh
# The engine as `make` builds it: the `engine` profile (fat LTO, one codegen unit, this
# machine's CPU) optimised with a profile of its own search, profile-guided optimisation as
# Stockfish's `make profile-build` does it. An instrumented build searches the held-out
# openings to depth 11 with the default configuration (not the bench suite: `bench` then does
# not time the positions the profile was taken on), `llvm-profdata` merges what it counted,
# and the final build lays the code out by it. What the search computes does not change (the
# bench signature is the same); `reports/nps/` measures what it gains.
#
# Without rustup's `llvm-profdata` (`rustup component add llvm-tools`), or with PGO=0, it builds
# the plain `engine` profile; PGO=1 makes a missing `llvm-profdata` an error. RUSTFLAGS, when
# set, replaces the `-C target-cpu=native` of `.cargo/config.toml` in both builds, as it does
# for `cargo build`.
#
# Usage: sh scripts/pgo_build.sh OUT [auto|0|1]      (run from the repository's root)
set -e
out=$1
mode=${2:-auto}
if [ -z "$out" ]; then
    echo "usage: sh scripts/pgo_build.sh OUT [auto|0|1]" >&2
    exit 2
fi
case $mode in
auto | 0 | 1) ;;
*)
    echo "pgo_build: PGO must be auto, 0 or 1, not '$mode'" >&2
    exit 2
    ;;
esac
exe=""
case $out in *.exe) exe=.exe ;; esac

plain() {
    cargo build --profile engine --locked
    cp "target/engine/searchlab$exe" "$out"
}

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata=$sysroot/lib/rustlib/$host/bin/llvm-profdata$exe
if [ "$mode" = 0 ]; then
    plain
    exit 0
fi
if [ ! -x "$profdata" ]; then
    if [ "$mode" = 1 ]; then
        echo "pgo_build: no $profdata (rustup component add llvm-tools)" >&2
        exit 1
    fi
    echo "pgo_build: no llvm-profdata at $profdata: building without a profile" \
        "(rustup component add llvm-tools adds it)" >&2
    plain
    exit 0
fi

flags=${RUSTFLAGS:--C target-cpu=native}
dir=$(pwd)/target/pgo
rm -rf "$dir/raw" "$dir/merged.profdata"
RUSTFLAGS="$flags -Cprofile-generate=$dir/raw" \
    cargo build --profile engine --locked --target-dir "$dir/generate"
echo "pgo_build: taking the profile (bench --depth 11 on suites/openings-heldout.epd)" >&2
"$dir/generate/engine/searchlab$exe" bench --depth 11 --suite suites/openings-heldout.epd \
    > /dev/null
"$profdata" merge -o "$dir/merged.profdata" "$dir/raw"
RUSTFLAGS="$flags -Cprofile-use=$dir/merged.profdata" \
    cargo build --profile engine --locked --target-dir "$dir/use"
cp "$dir/use/engine/searchlab$exe" "$out"
