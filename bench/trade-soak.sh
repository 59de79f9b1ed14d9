#!/usr/bin/env bash
# trade: a long run (15 minutes by default) of jdbc on H2 at 50 clients, to see whether the SUT stays flat: its
# RSS (the issue's goal: flat, sessions expire), its live heap, its native memory, and its CPU per page, minute by
# minute, with the audit passed at the end.
#
# The heap is pre-touched (-XX:+AlwaysPreTouch): a 512 MB heap whose pages are touched for the first time as G1
# moves its eden about would otherwise show as RSS growing for many minutes, which is the JVM settling, not the
# server keeping anything. Native memory tracking (summary) says whether anything off the heap grows. The live heap
# is measured twice (a full GC by GC.class_histogram): after 2 minutes and just before the end.
#
# Usage: bench/trade-soak.sh [minutes] [clients]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
minutes=${1:-15}
clients=${2:-50}
bench_out trade-soak "$@"
run="$out/run"
./perflab run trade --clients "$clients" --warmup 60s --duration "${minutes}m" --heap 512m --gc g1 --seed 7 \
  --jvm "-XX:+AlwaysPreTouch -XX:NativeMemoryTracking=summary" --quiet --out "$run" >"$out/run.log" 2>&1 &
perflab=$!

sut_pid() { python3 -c "import json,sys; print(json.load(open('$run/run.json'))['processes']['sut']['pid'])" 2>/dev/null; }
sample() { # $1: label
  local pid; pid=$(sut_pid) || return 0
  [ -n "$pid" ] || return 0
  { echo "== $1 ($(date +%T))"; jcmd "$pid" VM.native_memory summary | grep -E "^Total|Java Heap|Class \(|Thread \(|Code \(|GC \(|Internal|Other|Symbol|Arena" ;
    jcmd "$pid" GC.class_histogram | grep -E "^Total|^ +[1-9]:|^ +10:"; } >>"$out/samples.txt" 2>&1 || true
}
sleep 180 && sample "2 minutes into the measured window" &
sampler=$!
# the last sample a minute before the end of the window (warm-up 60 s + SUT start)
( sleep $(( 60 + minutes * 60 )) && sample "a minute before the end" ) &
last=$!
wait "$perflab" || true
kill "$sampler" "$last" 2>/dev/null || true

python3 - "$run" <<'PY' | tee "$out/result.md"
import csv, json, sys
run = sys.argv[1]
rows = [r for r in csv.DictReader(open(f"{run}/timeseries.csv")) if r["phase"] == "measure"]
s = json.load(open(f"{run}/summary.json"))
print("| minute | pages/s | SUT CPU µs/page | SUT RSS MB (end) | heap after GC MB (max) |")
print("|---:|---:|---:|---:|---:|")
for m in range(0, len(rows) // 60):
    w = rows[m * 60:(m + 1) * 60]
    pages = sum(float(r["successes"]) for r in w)
    cpu = sum(float(r["sutCpuPercent"] or 0) / 100 for r in w)  # CPU-seconds, one per second of window
    heap = [float(r["gcHeapAfterMb"]) for r in w if r["gcHeapAfterMb"]]
    print(f"| {m + 1} | {pages / 60:.0f} | {cpu / pages * 1e6:.0f} | {float(w[-1]['sutRssMb']):.0f} | "
          f"{max(heap) if heap else float('nan'):.0f} |")
audit = s.get("checks", {}).get("audit", {})
print(f"\n{s['successes']} pages, {s['errors']['total']} errors, p99 {s['latencyMs']['p99']:.1f} ms, "
      f"audit {audit.get('status')}: {audit.get('line')}")
PY
echo "native memory and live heap samples: $out/samples.txt"
echo "results in $out"
