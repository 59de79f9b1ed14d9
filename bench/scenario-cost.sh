#!/usr/bin/env bash
# What a scenario file costs the driver: CPU per request of a ready scenario against perflab's Java traffic for the
# same requests, same SUT, same 16 clients, one script run, on error-free work only (issue 39's goals):
#   soap-echo (the default): scenarios/soap-echo.yaml's echoComplexTypeDoc against the Java soap-echo traffic of the
#             same operation (payload 1, the envelope the scenario's file holds); goal at most 1.15x
#   trade:    scenarios/trade.yaml against trade's Java traffic, both the standard mix on the lean pages; goal at most
#             1.25x
#
# Method (as bench/driver-vs-wrk.sh): the SUT is pinned to CPU 0 and warmed once; each driver is pinned to CPU 1.
# Each repeat is a pair in alternating order; each drive warms up WARMUP seconds and then measures exactly REQUESTS
# requests, charged with its driver JVM's own CPU over that window (summary.json driver.cpuSeconds). A pair whose two
# runs met the SUT at rates more than 10 % apart is shown and left out of the ratio; a run with any error gives none.
# Both check every answer: soap-echo's Java traffic its echoed id, its scenario its `contains` of the counter it sent;
# trade's Java traffic and scenario each page's user, markers and what the request asked for.
#
# Usage: bench/scenario-cost.sh [soap-echo|trade] [requests] [warmup-seconds] [pairs]      (needs python3)
#        bench/scenario-cost.sh --summary DIR
set -euo pipefail
cd "$(dirname "$0")/.."
summarize() { # out
  python3 - "$1/runs.csv" "$(cat "$1/host.txt")" "$(cat "$1/commit.txt")" "$(cat "$1/args.txt")" <<'PY' | tee "$1/result.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
host, commit, args = sys.argv[2:5]
goal = 1.25 if args.split()[0] == "trade" else 1.15
bad = [r for r in rows if int(r["errors"]) > 0 or int(r["successes"]) <= 0]
us = lambda r: 1e6 * float(r["cpuSeconds"]) / int(r["successes"])
rate = lambda r: int(r["successes"]) / float(r["seconds"])
print(f"`bench/scenario-cost.sh {args}` at {commit}; host: {host}\n")
print("| pair | Java µs/req | Java req/s | scenario µs/req | scenario req/s | scenario / Java |")
print("|---|---:|---:|---:|---:|---:|")
ratios, left = [], []
for pair in sorted({r["pair"] for r in rows}, key=int):
    j = next(r for r in rows if r["pair"] == pair and r["traffic"] == "java")
    s = next(r for r in rows if r["pair"] == pair and r["traffic"] == "scenario")
    if j in bad or s in bad:
        print(f"| {pair} | errors: Java {j['errors']}, scenario {s['errors']} | | | | — |")
        continue
    if abs(rate(s) / rate(j) - 1) > 0.10:
        left.append(pair)
        print(f"| {pair} | {us(j):.2f} | {rate(j):,.0f} | {us(s):.2f} | {rate(s):,.0f} | ({us(s) / us(j):.2f}: rates differ) |")
        continue
    ratios.append(us(s) / us(j))
    print(f"| {pair} | {us(j):.2f} | {rate(j):,.0f} | {us(s):.2f} | {rate(s):,.0f} | {us(s) / us(j):.2f} |")
if bad:
    print(f"\nno ratio: {len(bad)} run(s) had errors; only error-free work is compared")
    sys.exit(1)
if left:
    print(f"\npairs {', '.join(left)} left out: the SUT ran more than 10 % faster for one traffic than for the other")
if not ratios:
    print("no rate-matched pair: no ratio")
    sys.exit(1)
print(f"\nscenario / Java driver CPU per request: median {statistics.median(ratios):.2f}, spread "
      f"{min(ratios):.2f}-{max(ratios):.2f} over {len(ratios)} rate-matched pairs (goal: at most {goal})")
PY
}
if [ "${1:-}" = --summary ]; then
  [ -f "${2:-}/runs.csv" ] || { echo "--summary needs a finished run's directory, not '${2:-}'" >&2; exit 2; }
  summarize "$2"
  exit
fi
. bench/build-once.sh
. bench/serve-sut.sh
workload=soap-echo
case "${1:-}" in
  soap-echo|trade) workload=$1; shift ;;
  ''|[0-9]*) ;;
  *) echo "bench/scenario-cost.sh: '$1' is not soap-echo or trade" >&2; exit 2 ;;
esac
requests=${1:-200000}
warmup=${2:-30}
pairs=${3:-4}
bench_out scenario-cost-$workload "$@"
echo "$workload $requests $warmup $pairs" >"$out/args.txt"

serve_sut "$workload" --cpus 0 --heap 512m --gc parallel

drive() { # tag traffic -> "successes errors cpuSeconds seconds"
  local what=(soap-echo --payload 1 --operation echoComplexTypeDoc)
  [ "$2" = scenario ] && what=(scenarios/soap-echo.yaml --operation echoComplexTypeDoc)
  [ "$workload" = trade ] && what=(trade)
  [ "$workload/$2" = trade/scenario ] && what=(scenarios/trade.yaml)
  taskset -c 1 ./perflab drive "${what[@]}" --target "$origin" --clients 16 \
    --warmup "$warmup"s --requests "$requests" --quiet --out "$out/$2-$1" >"$out/$2-$1.out" 2>"$out/$2-$1.err" || true
  [ -f "$out/$2-$1/summary.json" ] || { echo "bench: no summary for $2 pair $1; see $out/$2-$1.err" >&2; exit 1; }
  python3 - "$out/$2-$1/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(s["successes"], s["errors"]["total"], s["driver"]["cpuSeconds"], s["durationSeconds"])
PY
}

# warm the SUT once, so that both traffics meet a compiled server
drive 0 java >/dev/null
printf 'pair,traffic,successes,errors,cpuSeconds,seconds\n' >"$out/runs.csv"
for r in $(seq 1 "$pairs"); do
  order=(java scenario)
  [ $((r % 2)) -eq 0 ] && order=(scenario java)
  for t in "${order[@]}"; do
    read -r ok err cpus secs < <(drive "$r" "$t")
    printf '%s,%s,%s,%s,%s,%s\n' "$r" "$t" "$ok" "$err" "$cpus" "$secs" | tee -a "$out/runs.csv"
  done
done
summarize "$out"
echo "files in $out"
