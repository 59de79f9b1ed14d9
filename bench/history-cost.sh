#!/usr/bin/env bash
# The results history's costs (issue 41, docs/history.md).
# 1. Recording a run: each run's own line "perflab: history: run N recorded in FILE (M ms)" times it where it happens,
#    in perflab's JVM after the run (opening the file, SQLite's native library the first time, reading run.json and
#    summary.json, one transaction). Goal: under 50 ms.
# 2. A history of 10,000 runs (100 configurations of 100 runs each, made from the first run's files with its start and
#    throughput varied): how long `history import` records them, `history list --limit 0` lists them all,
#    `history show` shows one configuration's series with its change points and `history report` writes the page of
#    them all (12 configurations charted). Goal: seconds.
#
# Usage: bench/history-cost.sh [runs] [configurations] [runs-per-configuration]   (defaults: 10 100 100)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
configs=${2:-100}
per=${3:-100}
for n in "$runs" "$configs" "$per"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "bench: '$n' is not a positive whole number" >&2; exit 2; }
done
. bench/build-once.sh
bench_out history-cost "$@"
history="$out/history.sqlite"
printf 'run,recordMs\n' >"$out/record.csv"
for i in $(seq 1 "$runs"); do
  ./perflab run soap-echo --clients 4 --warmup 2s --duration 3s --seed 1 --history "$history" --label "bench-$i" \
    --out "$out/run-$i" >"$out/run-$i.log" 2>&1
  ms=$(sed -n 's/^perflab: history: run [0-9]* recorded in .* (\([0-9]*\) ms)$/\1/p' "$out/run-$i.log")
  [ -n "$ms" ] || { echo "bench: run $i was not recorded: $(tail -3 "$out/run-$i.log")" >&2; exit 1; }
  echo "$i,$ms" >>"$out/record.csv"
done
synthetic="$out/synthetic"
python3 - "$out/run-1" "$synthetic" "$configs" "$per" <<'PY'
import json, os, random, sys, datetime
seed_dir, target, configs, per = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
manifest = json.load(open(os.path.join(seed_dir, "run.json")))
summary = json.load(open(os.path.join(seed_dir, "summary.json")))
random.seed(1)
start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
for c in range(configs):
    for r in range(per):
        d = os.path.join(target, f"config-{c:03d}", f"run-{r:03d}")
        os.makedirs(d)
        m = json.loads(json.dumps(manifest))
        m["config"]["load"]["clients"] = c + 1          # another configuration
        m["startedAt"] = (start + datetime.timedelta(hours=r, minutes=c)).isoformat().replace("+00:00", "Z")
        s = json.loads(json.dumps(summary))
        level = 0.9 if r >= per * 2 // 3 else 1.0       # a 10 % drop two thirds along each series
        s["throughput"] = summary["throughput"] * level * random.gauss(1, 0.03)
        json.dump(m, open(os.path.join(d, "run.json"), "w"))
        json.dump(s, open(os.path.join(d, "summary.json"), "w"))
PY
big="$out/big.sqlite"
# wall seconds of one perflab command (its JVM's start included), its output kept in last.out
seconds() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >"$out/last.out" 2>&1 || { cat "$out/last.out" >&2; exit 1; }
  t1=$(date +%s%N)
  python3 -c "print(($t1 - $t0) / 1e9)"
}
import_s=$(seconds ./perflab history import "$synthetic" --history "$big")
list_s=$(seconds ./perflab history list --limit 0 --history "$big")
listed=$(grep -c ' soap-echo ' "$out/last.out" || true)
# the configuration of the first synthetic run, by its id
show_s=$(seconds ./perflab history show throughput --run 1 --history "$big")
cp "$out/last.out" "$out/show.txt"
report_s=$(seconds ./perflab history report --history "$big" -o "$out/history.html")
rm -rf "$synthetic"
python3 - "$out" "$import_s" "$list_s" "$listed" "$show_s" "$configs" "$per" "$report_s" <<'PY' | tee "$out/result.md"
import csv, statistics, sys
out, import_s, list_s, listed, show_s, configs, per, report_s = sys.argv[1:]
ms = [float(r["recordMs"]) for r in csv.DictReader(open(f"{out}/record.csv"))]
n = int(configs) * int(per)
print("| what | figure |")
print("|---|---:|")
print(f"| recording a run, median of {len(ms)} (min-max) | {statistics.median(ms):.0f} ms ({min(ms):.0f}-{max(ms):.0f}) |")
print(f"| `history import` of {n:,} runs | {float(import_s):.1f} s ({float(import_s) * 1000 / n:.2f} ms a run) |")
print(f"| `history list --limit 0` of {n:,} runs ({listed} lines) | {float(list_s):.1f} s |")
print(f"| `history show throughput` of one configuration ({per} runs) | {float(show_s):.1f} s |")
print(f"| `history report` of {n:,} runs ({configs} configurations, 12 charted) | {float(report_s):.1f} s |")
PY
echo "change points found in the shown series (a 10 % drop planted at run $((per * 2 / 3 + 1)) of $per):"
grep '^change at' "$out/show.txt" || echo "  none"
