#!/usr/bin/env bash
# Issue 13: seed 001's billion SOAP calls in 8 hours (34,722 calls/s), driver and SUT sharing this machine.
# Runs soap-echo's echoComplexTypeDoc at full speed for HOURS in the arrangement experiments/billion.yaml found
# best, every response checked (status and echoed id; 1% parsed and compared in full), and reports calls/s, the
# projection to 8 hours, errors, both JVMs' RSS slope (sampled every 10 s by this script) and the latency
# percentiles per hour (the run's latency.hlog, intervals added per hour: bench/LatencyByPeriod.java).
#
# Usage: bench/billion.sh HOURS [more run flags]      (1 here; 8 where a machine can be left; 0.05 to try it)
# Nothing else may run on the machine meanwhile. Ctrl-C stops the run and keeps what it measured.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
hours=${1:?usage: bench/billion.sh HOURS [more run flags]}
shift
seconds=$(python3 -c "import sys; h=float(sys.argv[1]); assert h > 0; print(round(h * 3600))" "$hours" 2>/dev/null) \
  || { echo "bench: HOURS must be a number above 0, got '$hours'" >&2; exit 2; }
bench_out billion "$hours" "$@"

# The arrangement experiments/billion.yaml found best (docs/BENCHMARKS.md, "A billion calls"): nothing pinned,
# HTTP/1.1, the SUT on JDK 25 where it is installed (its Double.toString is the fast one), the driver on the default.
arrangement=(--operation echoComplexTypeDoc --clients 16 --heap 512m --gc parallel)
jdk25=${PERFLAB_BILLION_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
if [ -x "$jdk25/bin/java" ]; then
  arrangement+=(--java-home "$jdk25")
else
  echo "bench: no JDK at $jdk25 (PERFLAB_BILLION_JDK): the SUT runs on the default JDK" >&2
fi

./perflab run soap-echo "${arrangement[@]}" --warmup 60s --duration "${seconds}s" --quiet "$@" \
  --out "$out/run" >"$out/run.log" 2>&1 &
run_pid=$!
# TERM, not INT: a background job of a non-interactive shell ignores SIGINT; perflab keeps partial results on TERM
trap 'kill -TERM $run_pid 2>/dev/null || true' INT TERM

# RSS of both JVMs every 10 s: the driver is perflab's own JVM (the launcher execs it), the SUT its child java
printf 'epochS,driverRssMb,sutRssMb\n' >"$out/rss.csv"
while kill -0 "$run_pid" 2>/dev/null; do
  sut=$(ps -e -o pid=,ppid=,comm= | awk -v p="$run_pid" '$2 == p && $3 == "java" {print $1; exit}')
  d=$(ps -o rss= -p "$run_pid" 2>/dev/null | tr -d ' ')
  s=$( [ -n "$sut" ] && ps -o rss= -p "$sut" 2>/dev/null | tr -d ' ' || true)
  [ -n "$d" ] && [ -n "$s" ] && printf '%s,%s,%s\n' "$(date +%s)" "$((d / 1024))" "$((s / 1024))" >>"$out/rss.csv"
  sleep 10
done
status=0
wait "$run_pid" || status=$?
[ -f "$out/run/summary.json" ] || { echo "bench: the run left no summary (exit $status); see $out/run.log" >&2; exit 1; }

{
python3 - "$out" "$hours" <<'PY'
import csv, json, sys
out, hours = sys.argv[1], float(sys.argv[2])
s = json.load(open(out + "/run/summary.json"))
rate = s["successes"] / s["durationSeconds"]
print(f"## bench/billion.sh {sys.argv[2]} ({'complete' if s['complete'] else 'INCOMPLETE: ' + str(s['endReason'])})\n")
print("| figure | value |")
print("|---|---|")
print(f"| measured | {s['durationSeconds']:,.0f} s after a 60 s warm-up |")
print(f"| calls | {s['successes']:,} ({s['requests']:,} sent) |")
print(f"| calls/s | {rate:,.0f} (goal 34,722) |")
print(f"| projected to 8 hours | {rate * 28800:,.0f} calls ({rate * 28800 / 1e9:.3f} billion) |")
print(f"| errors | {s['errors']['total']:,} {json.dumps({k: v for k, v in s['errors'].items() if v and k != 'total'})} |")
d, u = s.get("driver") or {}, s.get("sut") or {}
driver_us = 1e6 * d["cpuSeconds"] / s["requests"] if d.get("cpuSeconds") and s["requests"] else float("nan")
machine = s.get("machine") or {}
print(f"| CPU per call | SUT {u.get('cpuMicrosPerRequest') or float('nan'):.1f} µs, driver {driver_us:.1f} µs; "
      f"machine {machine.get('cpuPercent', float('nan')):.0f} % busy of {machine.get('cpus', '?')} CPUs |")
rows = [r for r in csv.DictReader(open(out + "/rss.csv"))]
t0 = int(rows[0]["epochS"]) if rows else 0
# the slope over the measured window after its first 10 minutes (or its second half, if shorter): heaps and
# code caches still grow while the JIT and the caches settle
skip = 60 + min(600, s["durationSeconds"] / 2)
late = [r for r in rows if int(r["epochS"]) - t0 >= skip]
def slope(key):
    if len(late) < 3:
        return float("nan")
    xs = [(int(r["epochS"]) - t0) / 3600 for r in late]
    ys = [float(r[key]) for r in late]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
for key, name in (("driverRssMb", "driver"), ("sutRssMb", "SUT")):
    vals = [float(r[key]) for r in late] or [float("nan")]
    print(f"| {name} RSS | {min(vals):.0f}-{max(vals):.0f} MB, slope {slope(key):+.1f} MB/hour ({len(late)} samples from {skip:.0f} s) |")
print()
PY
java -cp cli/target/perflab-cli.jar bench/LatencyByPeriod.java "$out/run/latency.hlog" 3600
} | tee "$out/result.md"
echo "bench: files in $out"
exit "$status"
