#!/usr/bin/env bash
# Checks deploy/k8s/bench-job.yaml without a cluster:
#  1. with `kubectl apply --dry-run=client` when kubectl reaches an API server (client dry
#     runs still ask the server for its types);
#  2. against the Kubernetes API schema with kubernetes-validate --strict (unknown fields
#     are errors), installed with pip when missing and possible;
#  3. the shard rule itself (always): an Indexed Job whose completions, parallelism and
#     SHARDS agree, whose command takes the shard from JOB_COMPLETION_INDEX + 1 and writes
#     and resumes shard-I.jsonl, and a merge Job that waits for as many shards on the same
#     volume.
# Exit code 0 when every check that could run passed; what could not run is said.
set -euo pipefail

manifest="$(cd "$(dirname "$0")" && pwd)/bench-job.yaml"
version="${K8S_VERSION:-1.29.0}"

if command -v kubectl >/dev/null && kubectl version --request-timeout=5s >/dev/null 2>&1; then
    kubectl apply --dry-run=client -f "$manifest"
else
    echo "k8s check: no API server reachable: kubectl --dry-run=client skipped"
fi

if ! command -v kubernetes-validate >/dev/null; then
    python3 -m pip install -q --user kubernetes-validate >/dev/null 2>&1 \
        || echo "k8s check: kubernetes-validate could not be installed"
    export PATH="$PATH:$(python3 -m site --user-base)/bin"
fi
if command -v kubernetes-validate >/dev/null; then
    kubernetes-validate --strict -k "$version" "$manifest"
else
    echo "k8s check: schema validation skipped (no kubernetes-validate)"
fi

python3 - "$manifest" <<'PY'
import sys
import yaml

docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
kinds = {(d["kind"], d["metadata"]["name"]): d for d in docs}
bench = kinds[("Job", "tumble-bench")]["spec"]
merge = kinds[("Job", "tumble-merge")]["spec"]
claim = kinds[("PersistentVolumeClaim", "tumble-results")]

def env(container, name):
    return next(e["value"] for e in container.get("env", []) if e["name"] == name)

assert bench["completionMode"] == "Indexed", "the bench Job must be Indexed"
shards = bench["completions"]
assert bench["parallelism"] == shards, "parallelism must equal completions"
pod = bench["template"]["spec"]
c = pod["containers"][0]
assert int(env(c, "SHARDS")) == shards, "SHARDS must equal completions"
script = "\n".join(c["command"] + c["args"])
for needle in ["JOB_COMPLETION_INDEX + 1", '--shard "$i/$SHARDS"', '--jsonl "$lines"',
               '--resume "$lines"', "shard-$i.jsonl", "shard-$i.done"]:
    assert needle in script, f"the bench command lacks {needle!r}"
assert pod["restartPolicy"] in ("OnFailure", "Never")
wait = merge["template"]["spec"]["initContainers"][0]
assert int(env(wait, "SHARDS")) == shards, "the merge must wait for every shard"
assert "ReadWriteMany" in claim["spec"]["accessModes"], "the results volume is shared"
for spec in (pod, merge["template"]["spec"]):
    claims = [v["persistentVolumeClaim"]["claimName"] for v in spec["volumes"]]
    assert claims == ["tumble-results"], claims
print(f"k8s check: an Indexed Job of {shards} shards and a merge after them, on one shared volume")
PY
