#!/bin/sh
# Issue 25's measurements of the embedded network, run from the repository's root with a build
# of a clean commit, the public suites in suites/ and Debian's ethereal-chess. Timed
# parts (elo-nnue, elo-ethereal, suites, nps) want an idle machine; eval-dependence is
# node-limited (depth) and does not depend on the load. Each command resumes its results file
# when killed (with the same build); `searchlab report` redraws a report from it.
#
#   sh scripts/nnue.sh nps elo-nnue elo-ethereal elo-ethereal-twice suites eval-dependence
#
# STRONG names the strongest configuration (the one `reports/elo-nnue/` decides for). The
# binary is the `engine` profile's (`cargo build --profile engine`: fat LTO in one codegen unit,
# what OpenBench builds), so that the games
# against Ethereal play the engine as its users build it.
set -e
SL=${SEARCHLAB:-target/engine/searchlab}
STRONG=${STRONG:-modern,eval=nnue}
S=suites
SUITES="--suite $S/wac.epd --suite $S/ecm.epd --suite $S/sts.epd"
ETHEREAL="name=ethereal cmd=/usr/games/ethereal-chess option.Hash=16 option.Threads=1"
now() { date +%s.%N; }

for part in "$@"; do
case $part in
# The book effect: the network against full at 5,000 nodes a move, 400 games on each book.
books) for book in openings openings-heldout; do
        $SL match --variant full=modern,eval=full --variant nnue=modern,eval=nnue --nodes 5000 \
            --games ${GAMES:-400} --concurrency ${JOBS:-1} --openings suites/$book.epd --quiet \
            --out reports/held-out-book/$book.jsonl
        gzip -9 -f reports/held-out-book/$book.jsonl
    done ;;
# Nodes per second of nnue against full: the bench at depth 8, alternated three times.
nps) for round in 1 2 3; do
        for eval in full nnue; do
            printf 'round %s, modern,eval=%s: ' "$round" "$eval"
            $SL bench --depth 8 --heuristics "modern,eval=$eval" 2>/dev/null | tail -1
        done
    done ;;
# Every match that judges a network plays from the held-out book (suites/README.md): datagen's
# training games start from suites/openings.epd, never from it.
# modern with the network against modern with the hand-written evaluation, 8+0.08, SPRT [0, 10].
elo-nnue) $SL match --variant full=modern --variant nnue=modern,eval=nnue --tc 8+0.08 \
    --sprt elo0=0,elo1=10 --games ${GAMES:-2000} --concurrency 2 --openings suites/openings-heldout.epd \
    --out reports/elo-nnue/results.jsonl --pgn reports/elo-nnue/games.pgn \
    && $SL report reports/elo-nnue/results.jsonl --out reports/elo-nnue ;;
# The default against Ethereal 12 (Hash 16, one thread), 400 games at 8+0.08 and 200 at
# 16+0.16, each at the reference speed (issue 58, section 4): every limit is scaled by 2.0 M
# nodes a second over what Ethereal's own bench measures on this machine (the median of three).
elo-ethereal) $SL match --variant "default=$STRONG" --engine "$ETHEREAL" --tc 8+0.08 \
    --reference-nps 2000000 --reference-bench "/usr/games/ethereal-chess bench" --games ${GAMES:-400} \
    --concurrency 2 --openings suites/openings-heldout.epd \
    --out reports/elo-ethereal/results.jsonl --pgn reports/elo-ethereal/games.pgn \
    && $SL report reports/elo-ethereal/results.jsonl --out reports/elo-ethereal --goal 'ethereal<=60%' ;;
elo-ethereal-twice) mkdir -p reports/elo-ethereal/twice-the-clock && $SL match --variant "default=$STRONG" --engine "$ETHEREAL" --tc 16+0.16 \
    --reference-nps 2000000 --reference-bench "/usr/games/ethereal-chess bench" --games ${GAMES:-200} \
    --concurrency 2 --openings suites/openings-heldout.epd \
    --out reports/elo-ethereal/twice-the-clock/results.jsonl --pgn reports/elo-ethereal/twice-the-clock/games.pgn \
    && $SL report reports/elo-ethereal/twice-the-clock/results.jsonl --out reports/elo-ethereal/twice-the-clock \
        --goal 'ethereal<=60%' \
    && if [ -f reports/elo-ethereal/results.jsonl.gz ]; then \
        python3 scripts/paired_clocks.py reports/elo-ethereal/results.jsonl.gz reports/elo-ethereal/twice-the-clock/results.jsonl \
        > reports/elo-ethereal/twice-the-clock/paired.txt; \
    else echo "no 8+0.08 run in reports/elo-ethereal/ to pair with: paired.txt not written" >&2; fi ;;
# WAC, ECM and STS at 100 ms per move: the strongest configuration, modern with full, Ethereal.
suites) $SL run $SUITES --movetime 100 --jobs 2 --variant "strongest=$STRONG" --variant full=modern \
    --engine "$ETHEREAL" --out reports/elo-ethereal/time/results.jsonl --report reports/elo-ethereal/time ;;
# What the evaluation changes: the main job's six toggles and reverse futility, futility,
# razoring, null move and correction history over modern, under each evaluation, at depth 8
# (JOBS workers each; -quiescence also leaves out modern's quiescence_checks, which needs it);
# then modern alone with a quarter of its pruning decisions audited (the audit does not change
# the search's nodes, so its file repeats the first's modern line node for node, and the
# toggles are not audited: that would triple the cost for error rates nobody asked for), and
# modern with razoring, which modern leaves out, audited the same way.
eval-dependence) for eval in full nnue; do
        base="modern,eval=$eval"
        $SL run $SUITES --depth 8 --jobs ${JOBS:-2} --variant "$eval=$base" \
            --variant "$eval-killers=$base,-killers" --variant "$eval-quiescence=$base,-quiescence,-quiescence_checks" \
            --variant "$eval-futility=$base,-futility" --variant "$eval+momentum=$base,+momentum" \
            --variant "$eval+ema_channel=$base,+ema_channel" --variant "$eval+gsr=$base,+gsr" \
            --variant "$eval-reverse_futility=$base,-reverse_futility" \
            --variant "$eval+razoring=$base,+razoring" --variant "$eval-null_move=$base,-null_move" \
            --variant "$eval-correction_history=$base,-correction_history" \
            --out reports/eval-dependence/$eval/results.jsonl --report reports/eval-dependence/$eval
        $SL run $SUITES --depth 8 --jobs ${JOBS:-2} --audit 0.25 --variant "$eval=$base" \
            --out reports/eval-dependence/$eval/audit/results.jsonl --report reports/eval-dependence/$eval/audit
        $SL run $SUITES --depth 8 --jobs ${JOBS:-2} --audit 0.25 --variant "$eval+razoring=$base,+razoring" \
            --out reports/eval-dependence/$eval/audit-razoring/results.jsonl \
            --report reports/eval-dependence/$eval/audit-razoring
    done ;;
*) echo "unknown part '$part'" >&2; exit 2 ;;
esac
done
