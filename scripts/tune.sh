#!/bin/sh
# reports/tune/: SPSA tunes in games, then the SPRT of the tuned values against the start.
# Run from the repository's root with a clean build; each part resumes its file when killed
# (node-limited games: the same trajectory). `searchlab report` draws each tune.
#
#   sh scripts/tune.sh modern gsr ema sprt    (the cost against match: scripts/tune_cost.sh)
set -e
SL=${SEARCHLAB:-target/release/searchlab}
OUT=reports/tune
GAMES="--nodes 5000 --pairs 2 --concurrency 2 --openings suites/openings.epd --seed 1 --quiet"
for part in "$@"; do
case $part in
# modern's search parameters: LMR's base and divisor, reverse futility's and futility's
# margins, null move's reduction, late move pruning's base, SEE's capture margin and the
# aspiration window, each with its start, a range around it and a final step c_end.
modern) $SL tune --variant modern --param lmr.base=75,0,200,10 --param lmr.divisor=225,100,500,15 \
    --param reverse_futility.margin=70,20,200,8 --param futility.margin=50,0,200,8 \
    --param null_move.reduction=2,1,5,0.5 --param late_move_pruning.base=3,1,12,1 \
    --param see.capture_margin=100,0,300,10 --param aspiration.window=25,5,100,5 \
    --iterations 4000 $GAMES --out $OUT/modern/tune.jsonl \
    && $SL report $OUT/modern/tune.jsonl --out $OUT/modern ;;
# 002's GSR over modern, in games, where EPD sweeps could not move it.
gsr) $SL tune --variant modern,+gsr --param gsr.cross_range --param gsr.red2 \
    --iterations 1500 $GAMES --out $OUT/gsr/tune.jsonl && $SL report $OUT/gsr/tune.jsonl --out $OUT/gsr ;;
# 002's EMA channel over modern: its two periods.
ema) $SL tune --variant modern,+ema_channel --param ema_channel.fast_period --param ema_channel.slow_period \
    --iterations 1500 $GAMES --out $OUT/ema/tune.jsonl && $SL report $OUT/ema/tune.jsonl --out $OUT/ema ;;
# The verification: the tuned values against the start, 8+0.08, SPRT [0, 5], two games at once.
# The start is the defaults the tune began from (reverse futility's margin was 70 then).
# On 2 cores such an SPRT cannot end for a gain of a few Elo (it needs tens of thousands of
# games), so it is capped; a larger --games extends the finished match with the same build.
sprt) $SL match --variant start=modern,reverse_futility.margin=70 --variant tuned=modern,lmr.base=75,lmr.divisor=222,reverse_futility.margin=67,futility.margin=45,null_move.reduction=2,late_move_pruning.base=3,see.capture_margin=102,aspiration.window=27 \
    --tc 8+0.08 --sprt elo0=0,elo1=5 --games ${SPRT_GAMES:-600} --concurrency 2 --openings suites/openings.epd \
    --out $OUT/sprt/results.jsonl --pgn $OUT/sprt/games.pgn && $SL report $OUT/sprt/results.jsonl --out $OUT/sprt ;;
*) echo "unknown part '$part'" >&2; exit 2 ;;
esac
done
