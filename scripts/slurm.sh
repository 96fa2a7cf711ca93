#!/usr/bin/env bash
# A searchlab run as a Slurm array job: N shards (one array task each, `--shard I/N`), then
# `merge` and `report` as one job that starts when every shard has succeeded.
#
#   scripts/slurm.sh N OUT_DIR [searchlab run arguments...]
#
#   scripts/slurm.sh 16 /scratch/wac --suite wac.epd --variant plain --variant classic --depth 8
#
# Each task writes OUT_DIR/shard-I.jsonl (a failed or pre-empted task is resubmitted with the
# same command and resumes its file); the dependent job writes OUT_DIR/results.jsonl and the
# report into OUT_DIR. Environment: SEARCHLAB (the binary, default target/release/searchlab),
# CPUS (cores per task, default 1: positions run in parallel inside a task), SBATCH_ARGS (more
# sbatch options, e.g. "--partition=short --time=02:00:00").
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
N=$1
OUT=$2
shift 2
case $N in
    '' | *[!0-9]* | 0) echo "slurm.sh: N must be a positive number of shards, got '$N'" >&2; exit 2 ;;
esac
BIN=${SEARCHLAB:-target/release/searchlab}
CPUS=${CPUS:-1}
mkdir -p "$OUT"
ARGS=$(printf '%q ' "$@")
Q_BIN=$(printf '%q' "$BIN")
Q_OUT=$(printf '%q' "$OUT")

# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="0-$((N - 1))" --cpus-per-task="$CPUS" \
    --job-name=searchlab --output="$OUT/shard-%a.log" \
    --wrap="I=\$((SLURM_ARRAY_TASK_ID + 1)); $Q_BIN run $ARGS --jobs $CPUS --shard \$I/$N --out $Q_OUT/shard-\$I.jsonl")
array=${array%%;*}

# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterok:$array" \
    --job-name=searchlab-merge --output="$OUT/merge.log" \
    --wrap="$Q_BIN merge --out $Q_OUT/results.jsonl $Q_OUT/shard-*.jsonl && $Q_BIN report $Q_OUT/results.jsonl --out $Q_OUT")
merge=${merge%%;*}

echo "array job $array: $N shards into $OUT; merge and report: job $merge (after the array)"
