#!/bin/sh
# The cost of `tune` against `match` (issue 26): games per second of each at the same node
# limit, openings, concurrency and hash, in alternated rounds on an idle machine (each round
# plays GAMES games with each command). The ratio tune/match is the share of match's speed a
# tune keeps (goal ≥ 0.95). The two do not play the same games (match: one fixed pair of
# players; tune: θ± moving), so the ratio is given in games per second (the measure)
# and in moves per second (game length taken out: the machinery's cost alone). Prints one line
# per round, then the ratios of the sums.
# With LAG 0 an iteration waits for its last pair before θ moves, so a core idles at each
# iteration's end; more PAIRS per iteration shorten that tail, and LAG 1 (`tune --lag 1`)
# removes it by queueing the next iteration's pairs behind the current one's.
#
#   sh scripts/tune_cost.sh [ROUNDS] [GAMES] [PAIRS] [LAG]   (defaults 3, 400, 2 and 0)
set -e
SL=${SEARCHLAB:-target/release/searchlab}
ROUNDS=${1:-3}
GAMES=${2:-400}
PAIRS=${3:-2}
LAG=${4:-0}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
LIMIT="--nodes 5000 --concurrency 2 --openings suites/openings.epd --seed 1 --quiet"
# A tune iteration plays --pairs pairs: GAMES/(2·PAIRS) iterations are GAMES games.
ITERATIONS=$((GAMES / (2 * PAIRS)))
now() { date +%s.%N; }
# Plies played in a match results file (its pairs' games) or a tune file (its `plies`).
plies() {
    python3 -c 'import json, sys
total = 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("type") == "pair":
        total += sum(len(g["moves"]) for g in d["games"])
    elif d.get("type") == "iteration":
        total += sum(sum(p) for p in d.get("plies", []))
print(total)' "$1"
}
match_s=0
tune_s=0
match_p=0
tune_p=0
echo "commit $(git rev-parse --short HEAD), $ROUNDS rounds of $GAMES games each, 5,000 nodes a move, concurrency 2, $PAIRS pairs an iteration, lag $LAG"
for round in $(seq 1 "$ROUNDS"); do
    start=$(now)
    $SL match --variant start=modern --variant moved=modern,lmr.base=80,futility.margin=45 \
        --games "$GAMES" $LIMIT --out "$TMP/match$round.jsonl" >"$TMP/log" 2>&1 || { cat "$TMP/log"; exit 1; }
    m=$(awk "BEGIN { print $(now) - $start }")
    start=$(now)
    $SL tune --variant modern --param lmr.base=75,0,200,10 --param futility.margin=50,0,200,8 \
        --iterations "$ITERATIONS" --pairs "$PAIRS" --lag "$LAG" $LIMIT --out "$TMP/tune$round.jsonl" >"$TMP/log" 2>&1 || { cat "$TMP/log"; exit 1; }
    t=$(awk "BEGIN { print $(now) - $start }")
    mp=$(plies "$TMP/match$round.jsonl")
    tp=$(plies "$TMP/tune$round.jsonl")
    awk "BEGIN { printf \"round $round: match %.1f s (%.2f games/s, %.0f moves/s), tune %.1f s (%.2f games/s, %.0f moves/s)\\n\", $m, $GAMES / $m, $mp / $m, $t, $GAMES / $t, $tp / $t }"
    match_s=$(awk "BEGIN { print $match_s + $m }")
    tune_s=$(awk "BEGIN { print $tune_s + $t }")
    match_p=$((match_p + mp))
    tune_p=$((tune_p + tp))
done
awk "BEGIN { printf \"tune's games per second / match's: %.3f\\n\", $match_s / $tune_s }"
awk "BEGIN { printf \"tune's moves per second / match's: %.3f (plies a game: match %.1f, tune %.1f)\\n\", ($tune_p / $tune_s) / ($match_p / $match_s), $match_p / ($ROUNDS * $GAMES), $tune_p / ($ROUNDS * $GAMES) }"
