#!/usr/bin/env bash
# The same server started two ways: soap-echo's lean stack by perflab's stack kind (`--stack lean`) and by a server
# file (servers/soap-echo-lean.yaml: the same JVM, flags and main class as a plain command, its whole process tree
# watched). Interleaved repeats in one script run, same driver settings, SUT on CPU 0 and driver on CPU 1. Goal
# (issue 38): the two give the same SUT CPU per request within the spread of the repeats, and the driver (which
# also runs perflab's samplers) the same CPU per request: watching a server from a file costs nothing more.
#
# Usage: bench/server-file-vs-stack.sh [repeats] [warmup-seconds] [duration-seconds]
# (until a7581f9 the stack kind always ran first in each pair; now the order alternates)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
repeats=${1:-5}
warmup=${2:-40}
duration=${3:-30}
bench_out server-file-vs-stack "$@"
printf 'repeat,way,cpuMicrosPerRequest,driverCpuMicrosPerRequest,throughput,requests,errors,steady\n' >"$out/runs.csv"
common=(--operation echoComplexTypeDoc --clients 16 --warmup "${warmup}s" --duration "${duration}s" --cpus 0
  --driver-cpus 1 --heap 512m --gc parallel --seed 1 --quiet)
for i in $(seq 1 "$repeats"); do
  # the order alternates, so that neither way always runs on a machine the other has just warmed or loaded
  order="stack file"
  [ $((i % 2)) -eq 0 ] && order="file stack"
  for way in $order; do
    dir="$out/$way-$i"
    if [ "$way" = stack ]; then
      ./perflab run soap-echo --stack lean "${common[@]}" --out "$dir" >"$dir.log" 2>&1 || true
    else
      ./perflab run soap-echo --server servers/soap-echo-lean.yaml "${common[@]}" --out "$dir" >"$dir.log" 2>&1 || true
    fi
    python3 - "$dir/summary.json" "$i" "$way" >>"$out/runs.csv" <<'PY'
import json, sys
f, i, way = sys.argv[1:]
try:
    s = json.load(open(f))
    n = s["successes"]
    print(f"{i},{way},{s['sut']['cpuMicrosPerRequest']:.2f},{s['driver']['cpuSeconds'] * 1e6 / n:.2f},"
          f"{s['throughput']:.0f},{n},{s['errors']['total']},{s['steady']['steady']}")
except Exception as e:
    print(f"{i},{way},,,,,,failed: {e}")
PY
    tail -1 "$out/runs.csv"
  done
done
python3 - "$out/runs.csv" <<'PY' | tee "$out/result.md"
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["errors"] == "0"]
print("| started by | runs | SUT CPU µs/request (mean, min-max) | driver CPU µs/request (mean, min-max) | throughput req/s (mean) |")
print("|---|---:|---:|---:|---:|")
means = {}
for way, label in (("stack", "perflab's stack kind (--stack lean)"), ("file", "server file (servers/soap-echo-lean.yaml)")):
    rs = [r for r in rows if r["way"] == way]
    if not rs:
        print(f"| {label} | 0 | — | — | — |")
        continue
    sut = [float(r["cpuMicrosPerRequest"]) for r in rs]
    drv = [float(r["driverCpuMicrosPerRequest"]) for r in rs]
    thr = [float(r["throughput"]) for r in rs]
    means[way] = statistics.mean(sut)
    print(f"| {label} | {len(rs)} | {statistics.mean(sut):.1f} ({min(sut):.1f}-{max(sut):.1f}) | "
          f"{statistics.mean(drv):.1f} ({min(drv):.1f}-{max(drv):.1f}) | {statistics.mean(thr):.0f} |")
if len(means) == 2:
    print(f"\nSUT CPU per request, file / stack: {means['file'] / means['stack']:.3f}")
PY
echo "bench: files in $out"
