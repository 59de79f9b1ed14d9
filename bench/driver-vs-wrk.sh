#!/usr/bin/env bash
# Driver CPU per request: perflab's driver against wrk, same SUT, same 16 connections, one script run, on error-free
# work only.
#
# Method (issue 36: the marginal method of earlier versions gave 0.99x on one host and 1.64x on another, its 20 s
# run still carrying the driver's JIT and the SUT's rate moving 15k-21k req/s between the runs it subtracted):
# - The SUT is pinned to CPU 0 and warmed up once; each driver is pinned to CPU 1.
# - Each repeat is a pair, its order alternating (wrk first, then perflab first): wrk runs WINDOW seconds; perflab
#   then warms up for WARMUP seconds (its JIT compiles) and measures exactly as many requests as wrk completed
#   (`--requests N`), so both tools are charged for the same work at the same SUT.
# - wrk's CPU is its whole process's (it is native code: nothing to warm; its start costs microseconds). perflab's is
#   the driver JVM's own CPU over its measured window (summary.json driver.cpuSeconds): what a warm driver costs.
# - Only successful requests count: wrk's requests less its non-2xx/3xx answers and socket errors (connect, read,
#   write, timeout), perflab's `successes`. If either tool saw any error, the script prints no ratio.
# - The result gives each pair's ratio, the median and the spread (min-max) of the pairs, each run's rate, and the
#   host (bench/host): the absolute figures are the host's; the ratio is what should travel. A pair whose two runs
#   met the SUT at rates more than 10 % apart is shown but left out of the ratio: CPU per request moves with the rate
#   (the first run at 18100a1 read 29 µs for wrk at 15.4k req/s and 20 µs at 22k).
# - `bench/driver-vs-wrk.sh --summary DIR` prints the table again from a finished run's directory.
# wrk validates nothing; perflab checks every response's status and echoed id and compares 1 % of them in full.
#
# Usage: bench/driver-vs-wrk.sh [window-seconds] [perflab-warmup-seconds] [pairs]     (needs: wrk, python3)
#        bench/driver-vs-wrk.sh --summary DIR
set -euo pipefail
cd "$(dirname "$0")/.."
summarize() { # out window warmup pairs
  python3 - "$1/runs.csv" "$(cat "$1/host.txt")" "$(cat "$1/commit.txt")" "$2" "$3" "$4" <<'PY' | tee "$1/result.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
host, commit, window, warmup, pairs = sys.argv[2:7]
errors = [r for r in rows if int(r["errors"]) > 0 or int(r["successes"]) <= 0]
def us(r):
    return 1e6 * float(r["cpuSeconds"]) / int(r["successes"])
def rate(r):
    return int(r["successes"]) / float(r["seconds"])
print(f"`bench/driver-vs-wrk.sh {window} {warmup} {pairs}` at {commit}; host: {host}\n")
print("| pair | wrk µs/req | wrk req/s | perflab µs/req | perflab req/s | perflab / wrk |")
print("|---|---|---|---|---|---|")
ratios, w_us, p_us, unmatched = [], [], [], []
for pair in sorted({r["pair"] for r in rows}, key=int):
    w = next(r for r in rows if r["pair"] == pair and r["tool"] == "wrk")
    p = next(r for r in rows if r["pair"] == pair and r["tool"] == "perflab")
    if w in errors or p in errors:
        print(f"| {pair} | errors: wrk {w['errors']}, perflab {p['errors']} | | | | — |")
        continue
    # a driver's CPU per request depends on the rate it ran at (fewer requests per wake-up at a lower one): a pair
    # whose two runs met the SUT at rates more than 10 % apart compares the rates, not the tools
    if abs(rate(p) / rate(w) - 1) > 0.10:
        unmatched.append(pair)
        print(f"| {pair} | {us(w):.2f} | {rate(w):,.0f} | {us(p):.2f} | {rate(p):,.0f} | ({us(p) / us(w):.2f}: rates differ) |")
        continue
    ratios.append(us(p) / us(w)); w_us.append(us(w)); p_us.append(us(p))
    print(f"| {pair} | {us(w):.2f} | {rate(w):,.0f} | {us(p):.2f} | {rate(p):,.0f} | {us(p) / us(w):.2f} |")
if errors:
    print(f"\nno ratio: {len(errors)} run(s) had errors or no success (runs.csv); only error-free work is compared")
    sys.exit(1)
if unmatched:
    print(f"\npairs {', '.join(unmatched)} left out: the SUT ran more than 10 % faster for one tool than for the other")
if not ratios:
    print("no pair ran both tools at the same rate: no ratio")
    sys.exit(1)
print(f"\nwrk {statistics.median(w_us):.2f} µs/req (min {min(w_us):.2f}, max {max(w_us):.2f}); "
      f"perflab {statistics.median(p_us):.2f} µs/req (min {min(p_us):.2f}, max {max(p_us):.2f})")
print(f"ratio perflab / wrk: median {statistics.median(ratios):.2f}, spread {min(ratios):.2f}-{max(ratios):.2f} "
      f"over {len(ratios)} rate-matched pairs (goal: at most 1.0)")
PY
}
if [ "${1:-}" = --summary ]; then
  [ -f "${2:-}/runs.csv" ] || { echo "--summary needs a finished run's directory, not '${2:-}'" >&2; exit 2; }
  read -r window warmup pairs <"$2/args.txt"
  summarize "$2" "$window" "$warmup" "$pairs"
  exit
fi
. bench/build-once.sh
. bench/serve-sut.sh
window=${1:-30}
warmup=${2:-30}
pairs=${3:-4}
command -v wrk >/dev/null || { echo "bench: wrk is needed (apt-get install wrk)" >&2; exit 1; }
bench_out driver-vs-wrk "$@"
echo "$window $warmup $pairs" >"$out/args.txt"

serve_sut soap-echo --cpus 0 --heap 512m --gc parallel

./perflab request soap-echo --operation echoComplexTypeDoc --payload 1 >"$out/body.xml"
# wrk's done() prints its own counts, so that errors are read from numbers, not from its report's wording
cat >"$out/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "text/xml; charset=UTF-8"
wrk.headers["SOAPAction"] = '""'
local f = io.open("$out/body.xml", "rb")
wrk.body = f:read("*a")
f:close()
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("counts requests=%d status=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, e.status, e.connect, e.read, e.write, e.timeout))
end
LUA

# warm the SUT up once so that both tools meet a JIT-compiled server
taskset -c 1 wrk -t1 -c16 -d60s -s "$out/post.lua" "$url" >/dev/null

cpu() { tail -1 "$1" | awk '{print $2}'; }
run_wrk() { # tag -> "successes errors cpuSeconds seconds"
  taskset -c 1 bench/cpu-of wrk -t1 -c16 -d"$window"s -s "$out/post.lua" "$url" >"$out/wrk-$1.out" 2>"$out/wrk-$1.err"
  python3 - "$out/wrk-$1.out" "$(cpu "$out/wrk-$1.err")" "$window" <<'PY'
import re, sys
c = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", open(sys.argv[1]).read().split("counts ", 1)[1]))
errors = c["status"] + c["connect"] + c["read"] + c["write"] + c["timeout"]
print(c["requests"] - c["status"] - c["timeout"], errors, sys.argv[2], sys.argv[3])
PY
}
run_perflab() { # tag requests -> "successes errors cpuSeconds seconds"
  taskset -c 1 ./perflab drive soap-echo --target "$url" --clients 16 --warmup "$warmup"s --requests "$2" \
    --quiet --out "$out/perflab-$1" >"$out/perflab-$1.out" 2>"$out/perflab-$1.err" || true
  if [ ! -f "$out/perflab-$1/summary.json" ]; then
    echo "bench: perflab drive wrote no summary (pair $1); see $out/perflab-$1.err" >&2
    exit 1
  fi
  python3 - "$out/perflab-$1/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(s["successes"], s["errors"]["total"], s["driver"]["cpuSeconds"], s["durationSeconds"])
PY
}

printf 'pair,tool,successes,errors,cpuSeconds,seconds\n' >"$out/runs.csv"
for r in $(seq 1 "$pairs"); do
  if [ $((r % 2)) -eq 1 ]; then
    read -r ok err cpus secs < <(run_wrk "$r")
    printf '%s,wrk,%s,%s,%s,%s\n' "$r" "$ok" "$err" "$cpus" "$secs" | tee -a "$out/runs.csv"
    n=$ok
    read -r ok err cpus secs < <(run_perflab "$r" "$n")
    printf '%s,perflab,%s,%s,%s,%s\n' "$r" "$ok" "$err" "$cpus" "$secs" | tee -a "$out/runs.csv"
  else
    # perflab first: it measures as many requests as the previous pair's wrk did
    read -r ok err cpus secs < <(run_perflab "$r" "$n")
    printf '%s,perflab,%s,%s,%s,%s\n' "$r" "$ok" "$err" "$cpus" "$secs" | tee -a "$out/runs.csv"
    read -r ok err cpus secs < <(run_wrk "$r")
    printf '%s,wrk,%s,%s,%s,%s\n' "$r" "$ok" "$err" "$cpus" "$secs" | tee -a "$out/runs.csv"
    n=$ok
  fi
done

summarize "$out" "$window" "$warmup" "$pairs"
echo "bench: files in $out"
