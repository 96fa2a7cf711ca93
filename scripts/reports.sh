#!/bin/sh
# The committed reports under reports/heuristics/ and reports/elo*/, searched again from a clean
# commit (the header of each results file names it). Run from the repository's root, with the
# public suites in suites/ and Debian's ethereal-chess for modern-time. Each command
# resumes its results file when killed (with the same build); `searchlab report` redraws a
# report from it. The audit, interaction and sweep reports are scripts/analyses.sh's.
#
#   sh scripts/reports.sh main suites elo-modern modern-time time modern elo
set -e
SL=${SEARCHLAB:-target/release/searchlab}
SUITES="--suite suites/wac.epd --suite suites/ecm.epd --suite suites/sts.epd"
SIX="--variant classic --variant -killers=classic,-killers --variant -quiescence=classic,-quiescence \
--variant -futility=classic,-futility --variant +momentum=classic,+momentum \
--variant +ema_channel=classic,+ema_channel --variant +gsr=classic,+gsr"

for report in "$@"; do
case $report in
# The main job (`searchlab run` with no arguments) at depth 7 on the project's suites.
main) $SL run --depth 7 $SIX --out reports/heuristics/main/results.jsonl --report reports/heuristics/main ;;
# WAC, ECM and STS at depth 6: the six toggles over classic, and plain.
suites) $SL run $SUITES --depth 6 $SIX --variant plain \
    --out reports/heuristics/suites/results.jsonl --report reports/heuristics/suites ;;
# The same at 200 ms per position, one search at a time (no two share the cores).
time) $SL run $SUITES --movetime 200 --jobs 1 $SIX \
    --out reports/heuristics/time/results.jsonl --report reports/heuristics/time ;;
# The six toggles over modern at depth 10.
modern) $SL run $SUITES --depth 10 --variant modern --variant -killers=modern,-killers \
    --variant -quiescence=modern,-quiescence --variant -futility=modern,-futility \
    --variant +momentum=modern,+momentum --variant +ema_channel=modern,+ema_channel \
    --variant +gsr=modern,+gsr --out reports/heuristics/modern/results.jsonl --report reports/heuristics/modern ;;
# classic, modern and Debian's Ethereal 12 at 100 ms per position, two searches at once.
modern-time) $SL run $SUITES --movetime 100 --jobs 2 --variant classic --variant modern \
    --engine ethereal=/usr/games/ethereal-chess --uci-option Hash=16 --uci-option Threads=1 \
    --out reports/heuristics/modern-time/results.jsonl --report reports/heuristics/modern-time ;;
# modern against classic in games, 1+0.01, SPRT [0, 10], two games at once.
elo-modern) $SL match --variant classic --variant modern --tc 1+0.01 --games 400 \
    --sprt elo0=0,elo1=10 --concurrency 2 --openings suites/openings.epd \
    --out reports/elo-modern/results.jsonl --pgn reports/elo-modern/games.pgn \
    && $SL report reports/elo-modern/results.jsonl --out reports/elo-modern ;;
# The six toggles against classic in games, 1+0.01, SPRT [0, 10] capped at 400 games each.
elo) $SL match $SIX --tc 1+0.01 --games 400 --sprt elo0=0,elo1=10 --concurrency 2 \
    --openings suites/openings.epd --out reports/elo/results.jsonl --pgn reports/elo/games.pgn \
    && $SL report reports/elo/results.jsonl --out reports/elo ;;
*) echo "unknown report '$report'" >&2; exit 2 ;;
esac
done
