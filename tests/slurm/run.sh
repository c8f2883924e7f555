#!/usr/bin/env bash
# A real single-node Slurm cluster runs a sharded `tumble bench`, and the merge of its
# shards must give what one process gives.
#
#   tests/slurm/run.sh [TUMBLE-BINARY]
#
# It installs Debian's slurm-wlm and munge when they are missing (apt-get, through sudo when
# not root), then starts munged, slurmctld and slurmd as the current user on one node of 2
# CPUs, with every file (configuration, key, state, spool, logs) in a temporary directory and
# no cgroups (proctrack/linuxproc, task/none). It submits deploy/slurm/submit.sh over a
# generated set of Figure boards in SHARDS shards, waits for the merge job, and checks that the merged
# totals and boards equal a single-process `tumble bench --json` over the same set: the same
# boards in the same order, the same length and proof for each, and the same totals of
# boards, proven boards, moves and tiles left. The daemons are stopped (by the pids
# they wrote) however the test ends; a failure prints the daemons' logs and the jobs'
# output.
#
# Environment: SHARDS (default 3), BOARDS (the generated set's size, default 12),
# SLURM_TEST_TIMEOUT (seconds to wait for the jobs, default 300).
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
tumble="${1:-$root/target/release/tumble}"
tumble="$(cd "$(dirname "$tumble")" && pwd)/$(basename "$tumble")"
shards="${SHARDS:-3}"
boards="${BOARDS:-12}"
timeout="${SLURM_TEST_TIMEOUT:-300}"
started=$(date +%s)

say() { echo "slurm test: $*"; }
fail() {
    echo "slurm test FAILED: $*" >&2
    show_logs
    exit 1
}

if [ ! -x "$tumble" ]; then
    echo "slurm test: no tumble binary at $tumble (cargo build --release first)" >&2
    exit 1
fi

# --- the packages
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# --- the cluster's files, all in one temporary directory
dir="$(mktemp -d /tmp/tumble-slurm.XXXXXX)"
chmod 755 "$dir"
mkdir -p "$dir/state" "$dir/spool" "$dir/munge" "$dir/out"
chmod 700 "$dir/munge"
user="$(id -un)"
host="$(hostname -s)"
# free TCP ports for slurmctld and slurmd
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
export SLURM_CONF="$dir/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=tumble-ci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SwitchType=switch/none
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
SlurmdParameters=config_overrides
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

show_logs() {
    for f in "$dir"/munge/munged.log "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/out/*.out; do
        [ -f "$f" ] || continue
        echo "----- $f (last 40 lines)" >&2
        tail -n 40 "$f" >&2
    done
    command -v squeue >/dev/null && squeue -a 2>&1 | head -20 >&2 || true
}

stop_pidfile() {
    local f="$1"
    [ -f "$f" ] || return 0
    local pid
    pid="$(cat "$f")"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || return 0
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
    fi
}

cleanup() {
    local code=$?
    if [ -n "${SLURM_CONF:-}" ] && [ -f "$dir/slurmctld.pid" ]; then
        scancel --user="$user" >/dev/null 2>&1 || true
    fi
    stop_pidfile "$dir/slurmd.pid"
    stop_pidfile "$dir/slurmctld.pid"
    stop_pidfile "$dir/munge/munged.pid"
    if [ "$code" -eq 0 ]; then
        rm -rf "$dir"
    else
        echo "slurm test: files kept in $dir" >&2
    fi
    exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- munge, on its own socket and key
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 status=none
chmod 600 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" || fail "munged did not start"
for _ in $(seq 50); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$dir/munge/munge.socket" ] || fail "munged made no socket"

# --- the daemons
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N "$host" || fail "slurmd did not start"
up=0
for _ in $(seq 100); do
    state="$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)"
    case "$state" in
    idle*) up=1; break ;;
    esac
    sleep 0.3
done
[ "$up" -eq 1 ] || fail "the node did not come up (state '${state:-none}')"
say "slurmctld and slurmd up: $(sinfo -h -N -o '%N %T %c CPUs')"

# --- the board set: generated Figure boards, each proven in milliseconds on one thread
set_file="$dir/out/set.txt"
"$tumble" gen --game figure --seeds "1..=$boards" >"$set_file"

# --- the array and the merge after it
ids="$(TUMBLE="$tumble" CPUS_PER_TASK=1 "$root/deploy/slurm/submit.sh" "$shards" "$dir/out" \
    "$set_file" --game figure --time-limit 60)" || fail "submit.sh failed"
echo "$ids"
array="$(echo "$ids" | awk '/^array job/ {print $3}')"
merge="$(echo "$ids" | awk '/^merge job/ {print $3}')"
[ -n "$array" ] && [ -n "$merge" ] || fail "submit.sh printed no job ids"
deadline=$(($(date +%s) + timeout))
while [ ! -f "$dir/out/merged.json" ] || squeue -h -j "$merge" 2>/dev/null | grep -q .; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "the jobs did not finish within ${timeout}s"
    if scontrol show job "$array" 2>/dev/null \
        | grep -qE 'JobState=(FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL)'; then
        fail "a task of the array job $array failed"
    fi
    sleep 1
done
merged_state="$(scontrol show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || true)"
say "merge job $merge: ${merged_state:-gone}"
[ "$merged_state" = "JobState=COMPLETED" ] || fail "the merge job did not complete"
for i in $(seq 1 "$shards"); do
    [ -f "$dir/out/shard-$i.jsonl" ] || fail "shard $i wrote no shard-$i.jsonl"
done

# --- the same set in one process, and the comparison
"$tumble" bench --json --game figure --time-limit 60 "$set_file" >"$dir/out/single.json" \
    || fail "the single-process bench failed"
python3 - "$dir/out/merged.json" "$dir/out/single.json" "$shards" "$boards" <<'PY' || fail "the merged totals differ"
import json, sys
merged, single = (json.load(open(p)) for p in sys.argv[1:3])
shards, boards = int(sys.argv[3]), int(sys.argv[4])
assert "missing" not in merged and "duplicates" not in merged, merged
mb, sb = merged["boards"], single["boards"]
assert len(sb) == boards, f"single: {len(sb)} boards, not {boards}"
assert [r["name"] for r in mb] == [r["name"] for r in sb], "not the same boards"
assert [r["index"] for r in mb] == list(range(boards)), "indices"
for m, s in zip(mb, sb):
    assert (m["length"], m["optimal"]) == (s["length"], s["optimal"]), (m, s)
    assert m["optimal"], f"board {m['name']} not proven"
mt, st = merged["totals"], single["totals"]
# not the score: of the optimal answers of a board, which one is found first depends on timing
for key in ["boards", "proven", "moves", "tiles_left", "mismatches"]:
    assert mt[key] == st[key], f"{key}: merged {mt[key]}, single {st[key]}"
assert mt["jobs"] == shards, f"jobs {mt['jobs']}: one per shard"
print(f"slurm test: merged == single: {mt['boards']} boards, {mt['proven']} proven, "
      f"{mt['moves']} moves ({shards} shards)")
PY
say "passed in $(($(date +%s) - started)) s"
