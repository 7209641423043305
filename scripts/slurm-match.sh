#!/usr/bin/env bash
# A referee match as a Slurm job array: one shard per array task, merged by
# `referee summary` once all are done (docs/scale-out.md).
#
#   sbatch scripts/slurm-match.sh                 # 16 shards of 16,000 games
#   sbatch --array=1-4 scripts/slurm-match.sh     # 4 shards instead
#
# Every node needs the same binaries at the same paths (a shared folder, or
# copied there first) and the results folder shared or gathered afterwards.
# A task that is requeued or run again resumes its shard.
#SBATCH --job-name=othello-match
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
#SBATCH --output=results/slurm-%A-%a.out
set -euo pipefail

BIN=${BIN:-$PWD/bin}              # referee, new and old bots
RESULTS=${RESULTS:-$PWD/results}
GAMES=${GAMES:-16000}
SEED=${SEED:-42}

# Shards are numbered from 1, like the array; their count is the array's.
index=${SLURM_ARRAY_TASK_ID:?run under sbatch (SLURM_ARRAY_TASK_ID is not set)}
count=${SLURM_ARRAY_TASK_COUNT:?run under sbatch}
mkdir -p "$RESULTS"
exec "$BIN/referee" --p1 "$BIN/new" --p2 "$BIN/old" --games "$GAMES" --seed "$SEED" \
    --random-openings 6 --concurrency "${SLURM_CPUS_PER_TASK:-2}" \
    --shard "$index/$count" --games-out "$RESULTS/shard$index.jsonl" --resume

# Afterwards, on any machine with the results:
#   bin/referee summary results/shard*.jsonl --json results/summary.json
#   bin/referee report results/shard*.jsonl -o results/report.html
