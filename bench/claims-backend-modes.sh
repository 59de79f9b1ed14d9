#!/usr/bin/env bash
# The claims back end's CPU per request, run after run, with its default JVM flags (-XX:-BackgroundCompilation)
# and without them (--backend-jvm ""): the check that its cost is not bimodal. Each run starts a fresh
# back-end JVM; passthrough {100k,100k}, 16 clients, a short warm-up on purpose (the starvation showed in the
# first seconds under load). Before the fix about 40 % of runs cost 8.5-11 ms of back-end CPU per request
# instead of 1.5-2 ms: a C2 compiler thread starved by interpreted request threads on 2 CPUs
# (docs/workloads/claims.md). A run is counted slow when the back end costs more than 3 ms per request.
#
# Usage: bench/claims-backend-modes.sh [runs-per-mode] [warmup-seconds] [duration-seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
runs=${1:-6}
warmup=${2:-5}
duration=${3:-10}
bench_out claims-backend-modes "$@"
printf 'mode,run,throughput,backendMicrosPerRequest,backendJitCpuPercent,sutJitCpuPercent,slow\n' >"$out/runs.csv"
for i in $(seq 1 "$runs"); do
  for mode in default none; do # interleaved, so that drift of the machine favours neither
    dir="$out/$mode-$i"
    flags=()
    if [ "$mode" = none ]; then flags=(--backend-jvm ""); fi
    ./perflab run claims --operation passthrough --sizes 100k/100k --clients 16 --warmup "${warmup}s" \
      --duration "${duration}s" --heap 1g --gc parallel --quiet --out "$dir" "${flags[@]}" >"$dir.log" 2>&1 || true
    python3 - "$dir/summary.json" "$mode" "$i" >>"$out/runs.csv" <<'PY'
import json, sys
path, mode, run = sys.argv[1:]
try:
    s = json.load(open(path))
    b = s["backend"]
    us = b["cpuMicrosPerRequest"]
    print(f'{mode},{run},{s["throughput"]:.0f},{us:.0f},{b.get("jitCpuPercent")},{s["sut"].get("jitCpuPercent")},'
          f'{"yes" if us > 3000 else "no"}')
except Exception as e:
    print(f"{mode},{run},,,,,failed: {e}")
PY
  done
done
python3 - "$out/runs.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for mode in ("default", "none"):
    r = [x for x in rows if x["mode"] == mode and x["backendMicrosPerRequest"]]
    us = sorted(float(x["backendMicrosPerRequest"]) for x in r)
    slow = sum(1 for x in r if x["slow"] == "yes")
    label = "-XX:-BackgroundCompilation (default)" if mode == "default" else 'no flags (--backend-jvm "")'
    if us:
        print(f"{label}: {slow} slow of {len(r)} runs; back end {us[0]:.0f}-{us[-1]:.0f} µs per request")
PY
echo "runs: $out/runs.csv"
