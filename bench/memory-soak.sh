#!/usr/bin/env bash
# Memory stays bounded at full speed: a closed-model run (16 clients, no think time) of `minutes` minutes
# after a warm-up, with the SUT pinned to CPU 0 and the driver to CPU 1. The driver JVM's RSS is sampled
# every 5 s; the SUT's RSS comes from the run's own timeseries.csv. For both, after the warm-up: growth
# (last vs first sample) and the least-squares slope in MiB per hour. Goals: growth < 10 % (driver, issue
# 2), no upward trend and within 10 % for driver and SUT (issue 3's 15-minute run), zero errors.
# The same run gives the SUT's CPU per request.
#
# Usage: bench/memory-soak.sh [minutes] [warmup-seconds] [stack] [operation]
#        SUT_JVM="-XX:+AlwaysPreTouch" bench/memory-soak.sh ...   (extra SUT JVM flags)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
minutes=${1:-15}
warmup=${2:-30}
stack=${3:-lean}
operation=${4:-echoComplexTypeDoc}
bench_out memory-soak-$stack "$@"

./perflab run soap-echo --stack "$stack" --operation "$operation" --clients 16 --warmup "${warmup}s" \
  --duration "${minutes}m" --cpus 0 --driver-cpus 1 --heap 512m --gc parallel ${SUT_JVM:+--jvm "$SUT_JVM"} \
  --quiet --out "$out/run" \
  >"$out/perflab.out" 2>"$out/perflab.err" &
pid=$!
start=$(date +%s)
printf 'second,rssMb\n' >"$out/driver-rss.csv"
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/VmRSS/ {print $2/1024}' "/proc/$pid/status" 2>/dev/null || true)
  [ -n "$rss" ] && printf '%s,%s\n' "$(( $(date +%s) - start ))" "$rss" >>"$out/driver-rss.csv"
  sleep 5
done
wait "$pid"

python3 - "$out" "$warmup" "$stack" "$operation" <<'PY' | tee "$out/result.md"
import csv, json, sys
out, warmup, stack, operation = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def trend(points):
    """growth % (last vs first) and least-squares slope in MiB/hour of (seconds, MiB) points"""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    slope = sum((p[0] - mx) * (p[1] - my) for p in points) / sxx if sxx else 0.0
    return 100 * (points[-1][1] - points[0][1]) / points[0][1], slope * 3600, points[0][1], points[-1][1], max(p[1] for p in points)

# the driver's samples start at launch; JVM and SUT start take about 10 s before the warm-up begins
driver = [(int(r["second"]), float(r["rssMb"])) for r in csv.DictReader(open(f"{out}/driver-rss.csv"))]
driver = [p for p in driver if p[0] >= warmup + 10]
sut = [(int(r["second"]), float(r["sutRssMb"])) for r in csv.DictReader(open(f"{out}/run/timeseries.csv"))
       if r["phase"] == "measure" and r["sutRssMb"]]
s = json.load(open(f"{out}/run/summary.json"))
print(f"stack {stack}, {operation}, P=1, {s['durationSeconds'] / 60:.1f} min measured after {warmup} s warm-up")
print()
print("| process | RSS after warm-up | RSS at the end | max | growth | slope |")
print("|---|---|---|---|---|---|")
for name, pts in (("driver", driver), ("SUT", sut)):
    g, sl, first, last, mx = trend(pts)
    print(f"| {name} | {first:.0f} MiB | {last:.0f} MiB | {mx:.0f} MiB | {g:+.1f} % | {sl:+.1f} MiB/h |")
print()
print(f"requests {s['requests']}, errors {s['errors']['total']}, throughput {s['throughput']:.0f} req/s, "
      f"SUT CPU {s['sut']['cpuMicrosPerRequest']:.1f} µs/request, "
      f"driver CPU {1e6 * s['driver']['cpuSeconds'] / s['requests']:.1f} µs/request")
PY
echo "bench: files in $out"
