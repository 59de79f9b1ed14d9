#!/usr/bin/env bash
# lean against cxf: requests per SUT CPU-second for each soap-echo operation at P = 1 and P = 10
# (echoBase64Doc at P = 1 only: its size does not depend on P), over HTTP/1.1 and h2c, side by side in one
# script run with the same driver settings (closed model, 16 clients), SUT on CPU 0, driver on CPU 1, the
# two stacks interleaved. Goal: lean >= 3x cxf on echoComplexTypeDoc at P = 1.
#
# CXF needs a long warm-up when pinned to one CPU: its JIT compiler threads share that CPU, and at 15 s its
# throughput is still rising steeply (timeseries.csv); 60 s brings it close to steady.
#
# Usage: bench/stacks-cpu.sh [warmup-seconds] [duration-seconds] ["http1 h2c"] ["op:P op:P ..."]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
warmup=${1:-60}
duration=${2:-20}
protocols=${3:-"http1 h2c"}
combos=${4:-"echoComplexTypeDoc:1 echoComplexTypeDoc:10 echoStringDoc:1 echoStringDoc:10 echoBase64Doc:1"}
bench_out stacks-cpu "$@"
printf 'operation,payload,http,stack,requestsPerCpuSecond,cpuMicrosPerRequest,throughput,errors,steady\n' >"$out/runs.csv"

for combo in $combos; do
  op=${combo%%:*}
  p=${combo##*:}
  for http in $protocols; do
    for stack in lean cxf; do
      dir="$out/$op-p$p-$http-$stack"
      ./perflab run soap-echo --stack "$stack" --operation "$op" --payload "$p" --http "$http" --clients 16 \
        --warmup "${warmup}s" --duration "${duration}s" --cpus 0 --driver-cpus 1 --heap 512m --gc parallel \
        --seed 1 --quiet --out "$dir" >"$dir.log" 2>&1 || true
      python3 - "$dir/summary.json" "$op" "$p" "$http" "$stack" >>"$out/runs.csv" <<'PY'
import json, sys
f, op, p, http, stack = sys.argv[1:]
try:
    s = json.load(open(f))
    print(f"{op},{p},{http},{stack},{s['sut']['requestsPerCpuSecond']:.0f},{s['sut']['cpuMicrosPerRequest']:.1f},"
          f"{s['throughput']:.0f},{s['errors']['total']},{s['steady']['steady']}")
except Exception as e:
    print(f"{op},{p},{http},{stack},,,,failed: {e}")
PY
      tail -1 "$out/runs.csv"
    done
  done
done

python3 - "$out/runs.csv" <<'PY' | tee "$out/result.md"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
key = lambda r: (r["operation"], r["payload"], r["http"])
by = {}
for r in rows:
    by.setdefault(key(r), {})[r["stack"]] = r
print("| operation | P | http | lean req/CPU-s | cxf req/CPU-s | lean / cxf | errors (lean, cxf) |")
print("|---|---:|---|---:|---:|---:|---|")
for k, v in by.items():
    lean, cxf = v.get("lean", {}), v.get("cxf", {})
    try:
        ratio = f"{float(lean['requestsPerCpuSecond']) / float(cxf['requestsPerCpuSecond']):.2f}x"
    except (KeyError, ValueError, ZeroDivisionError):
        ratio = "—"
    print(f"| {k[0]} | {k[1]} | {k[2]} | {lean.get('requestsPerCpuSecond', '—')} | {cxf.get('requestsPerCpuSecond', '—')} "
          f"| {ratio} | {lean.get('errors', '—')}, {cxf.get('errors', '—')} |")
PY
echo "bench: files in $out"
