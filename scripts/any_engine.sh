#!/bin/sh
# reports/any-engine/: the harness's analyses for an external UCI engine, measured on the
# searchlab binary itself (so every number can be set against the in-process search), and the
# engines' process starts and time under the one-process-per-worker path. Run from the
# repository's root on an idle machine, with suites/ (WAC, ECM, STS) and Debian's ethereal-chess and
# stockfish; OLD names a build before the issue (a process per position) for `peers`.
#
#   sh scripts/any_engine.sh engine in-process overhead peers
set -e
SL=${SEARCHLAB:-target/release/searchlab}
OLD=${OLD:-/work/bin/searchlab-bb1e27b}
S=suites
OUT=reports/any-engine
FIVE=lmr,null_move,reverse_futility,futility,killers
now() { date +%s.%N; }
# A wrapper that logs each start of an engine into $2.starts, then runs it.
wrapper() {
    printf '#!/bin/sh\necho start >> %s.starts\nexec %s "$@"\n' "$2" "$1" > "$2.sh"
    chmod +x "$2.sh"; rm -f "$2.starts"
}

for part in "$@"; do
case $part in
# modern's five check options switched off one at a time, the binary driven as an engine with
# its counter lines on, at depth 8 on WAC and ECM.
engine) $SL run --suite $S/wac.epd --suite $S/ecm.epd --depth 8 --jobs 2 \
    --engine "name=modern cmd=$SL option.CounterInfo=true" --ablation off-one:$FIVE \
    --out $OUT/engine/results.jsonl --report $OUT/engine ;;
# The same design in-process.
in-process) $SL run --suite $S/wac.epd --suite $S/ecm.epd --depth 8 --jobs 2 \
    --variant modern --ablation off-one:$FIVE \
    --out $OUT/in-process/results.jsonl --report $OUT/in-process ;;
# The overhead of the engine path: WAC at depth 8 on 2 workers, the same search as an engine
# and in-process, each run alone, wall time from start to end; three rounds, interleaved, as
# the machine is shared and its speed drifts by tens of percent from minute to minute.
overhead) mkdir -p $OUT/overhead; rm -f $OUT/overhead/*.jsonl* $OUT/overhead/wall.txt
    for round in 1 2 3; do
        t0=$(now); $SL run --suite $S/wac.epd --depth 8 --jobs 2 --engine "name=modern cmd=$SL" \
            --out $OUT/overhead/engine-$round.jsonl > /dev/null; t1=$(now)
        $SL run --suite $S/wac.epd --depth 8 --jobs 2 --variant modern \
            --out $OUT/overhead/in-process-$round.jsonl > /dev/null; t2=$(now)
        echo "round $round: engine $(echo "$t1 - $t0" | bc) s, in-process $(echo "$t2 - $t1" | bc) s, ratio $(echo "scale=3; ($t1 - $t0) / ($t2 - $t1)" | bc)" \
            | tee -a $OUT/overhead/wall.txt
    done
    gzip -f $OUT/overhead/*.jsonl ;;
# Ethereal 12 and Stockfish 15.1 on WAC at 100 ms a move, 2 workers: this build (a process per
# worker) against $OLD (a process per position), each start logged by a wrapper.
peers) mkdir -p $OUT/peers; rm -f $OUT/peers/*.jsonl* $OUT/peers/*.txt
    for engine in ethereal=/usr/games/ethereal-chess stockfish=/usr/games/stockfish; do
        label=${engine%%=*}; cmd=${engine#*=}
        for build in new old; do
            bin=$SL; [ $build = old ] && bin=$OLD
            wrapper "$cmd" /tmp/any-engine-$label-$build
            t0=$(now); $bin run --suite $S/wac.epd --movetime 100 --jobs 2 \
                --engine "$label=/tmp/any-engine-$label-$build.sh" --uci-option Hash=16 --uci-option Threads=1 \
                --out $OUT/peers/$label-$build.jsonl > /dev/null; t1=$(now)
            echo "$label $build: $(wc -l < /tmp/any-engine-$label-$build.starts) starts, $(echo "$t1 - $t0" | bc) s" \
                | tee -a $OUT/peers/starts.txt
        done
    done
    gzip -f $OUT/peers/*.jsonl ;;
*) echo "unknown part '$part'" >&2; exit 2 ;;
esac
done
