#!/bin/sh
# The committed reports of the pruning audit, the interaction matrix and the parameter sweeps:
# WAC and ECM from suites/ at a fixed depth, on every core. Each command
# resumes its results file when killed; `searchlab report` redraws a report from it.
set -e
SL=${SEARCHLAB:-target/release/searchlab}
SUITES="--suite suites/wac.epd --suite suites/ecm.epd"

# The audit: every pruning/reduction decision of `all` and `modern`, and each 002 signal
# alone over `classic` (its own hit rate), a quarter of the decisions sampled, depth 8.
$SL run $SUITES --depth 8 --audit 0.25 \
    --variant all --variant modern \
    --variant +momentum=classic,+momentum --variant +ema_channel=classic,+ema_channel \
    --variant +trend=classic,+trend --variant +rsi=classic,+rsi \
    --variant +minmax_channel=classic,+minmax_channel \
    --variant +channel_breakout=classic,+channel_breakout \
    --out reports/audit/results.jsonl --report reports/audit

# The interaction matrix of the main job's six heuristics over classic, depth 7.
$SL run $SUITES --depth 7 --ablation pairs \
    --out reports/interactions/results.jsonl --report reports/interactions

# The sweeps over classic, depth 7: futility's margin; GSR's crossover range against RED2 (a
# grid); the EMA channel's two periods (a grid).
$SL run $SUITES --depth 7 --sweep futility.margin=0..200:25 \
    --out reports/sweeps/futility/results.jsonl --report reports/sweeps/futility
$SL run $SUITES --depth 7 --sweep gsr.cross_range=8,16,32,56,96,160 --sweep gsr.red2=1..4:1 \
    --out reports/sweeps/gsr/results.jsonl --report reports/sweeps/gsr
$SL run $SUITES --depth 7 --variant classic,+ema_channel \
    --sweep ema_channel.fast_period=3,5,8 --sweep ema_channel.slow_period=10,16,24 \
    --out reports/sweeps/ema_channel/results.jsonl --report reports/sweeps/ema_channel
