#!/usr/bin/env bash
# Submits a `tumble bench` run over Slurm: an array job of SHARDS tasks (bench.sbatch, one
# shard each) and a merge job (merge.sbatch) that starts when every task has succeeded
# (--dependency=afterok). Prints the two job ids.
#
#   deploy/slurm/submit.sh SHARDS OUTDIR (FILE | --dates A..B) [bench options]
#
# OUTDIR must be a directory every node sees; the results are OUTDIR/shard-I.jsonl, then
# OUTDIR/merged.json and OUTDIR/merged.txt. Environment: TUMBLE (the binary, default
# `tumble` on the PATH; exported to the jobs), CPUS_PER_TASK (default 1), and SBATCH_ARGS
# (more sbatch options for both jobs, as --partition=… --time=…).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -lt 3 ]; then
    echo "usage: $0 SHARDS OUTDIR (FILE | --dates A..B) [bench options]" >&2
    exit 2
fi
shards="$1"
out="$2"
shift 2
case "$shards" in
'' | *[!0-9]* | 0)
    echo "SHARDS must be a number ≥ 1, not '$shards'" >&2
    exit 2
    ;;
esac
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# shellcheck disable=SC2206 # the extra options are words
extra=(${SBATCH_ARGS:-})
export TUMBLE="${TUMBLE:-tumble}"

array=$(sbatch --parsable "${extra[@]}" --array="1-$shards" \
    --cpus-per-task="${CPUS_PER_TASK:-1}" --output="$out/bench-%A_%a.out" \
    "$here/bench.sbatch" "$out" "$@")
array="${array%%;*}"
merge=$(sbatch --parsable "${extra[@]}" --dependency="afterok:$array" \
    --output="$out/merge-%j.out" "$here/merge.sbatch" "$out")
merge="${merge%%;*}"
echo "array job $array ($shards shards)"
echo "merge job $merge"
