#!/usr/bin/env bash
# Driver memory stays bounded: a run at full speed (closed model, 16 clients, no think time) for
# `minutes` minutes; the driver JVM's RSS is sampled every 5 s. Growth = (last RSS - RSS at the end of the
# warm-up) / RSS at the end of the warm-up; goal < 10 %. The same run gives the lean stack's SUT CPU per
# request (echoComplexTypeDoc, P=1), with the SUT on CPU 0 and the driver on CPU 1.
#
# Usage: bench/driver-memory.sh [minutes] [warmup-seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
warmup=${2:-30}
out="bench/out/driver-memory-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"

./perflab run soap-echo --clients 16 --warmup "${warmup}s" --duration "${minutes}m" --cpus 0 --driver-cpus 1 \
  --heap 512m --gc parallel --quiet --out "$out/run" >"$out/perflab.out" 2>"$out/perflab.err" &
pid=$!
start=$(date +%s)
printf 'second,rssMb\n' >"$out/driver-rss.csv"
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/VmRSS/ {print $2/1024}' "/proc/$pid/status" 2>/dev/null || true)
  [ -n "$rss" ] && printf '%s,%s\n' "$(( $(date +%s) - start ))" "$rss" >>"$out/driver-rss.csv"
  sleep 5
done
wait "$pid"

python3 - "$out" "$warmup" <<'PY' | tee "$out/result.md"
import csv, json, sys
out, warmup = sys.argv[1], int(sys.argv[2])
rows = [(int(r["second"]), float(r["rssMb"])) for r in csv.DictReader(open(f"{out}/driver-rss.csv"))]
# the JVM start and SUT start take a few seconds: the warm-up ends about warmup + 10 s after launch
after_warmup = next(rss for sec, rss in rows if sec >= warmup + 10)
measured = [rss for sec, rss in rows if sec >= warmup + 10]
last = measured[-1]
s = json.load(open(f"{out}/run/summary.json"))
print("| figure | value |")
print("|---|---|")
print(f"| driver RSS after warm-up | {after_warmup:.0f} MiB |")
print(f"| driver RSS at the end | {last:.0f} MiB (max {max(measured):.0f}) |")
print(f"| growth after warm-up | {100 * (last - after_warmup) / after_warmup:+.1f} % (goal < 10 %) |")
print(f"| requests, errors | {s['requests']}, {s['errors']['total']} |")
print(f"| throughput | {s['throughput']:.0f} req/s |")
print(f"| lean SUT CPU per request (echoComplexTypeDoc, P=1) | {s['sut']['cpuMicrosPerRequest']:.1f} µs |")
print(f"| driver CPU per request | {1e6 * s['driver']['cpuSeconds'] / s['requests']:.1f} µs |")
PY
echo "bench: files in $out"
