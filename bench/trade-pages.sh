#!/usr/bin/env bash
# trade: pages per CPU-second of the server side (the SUT plus its database when perflab starts one) at
# DayTrader's standard mix, 50 clients, for jdbc and jpa on H2 and on PostgreSQL, in one script run, each
# configuration after a warm-up long enough for the pages' code to compile (seed 002: Trade 2 needed about
# 180,000 requests). Goal: jdbc on H2 >= 3,000 pages per CPU-second with p99 < 50 ms; the jdbc/jpa ratio sits
# beside Trade 2's 1.32 (JDBC against EJB).
#
# The driver shares the 2 CPUs, so absolute throughput is not the figure: pages per CPU-second of the server
# side is, with the audit of every run passed.
#
# Usage: bench/trade-pages.sh [warmup-seconds|auto:MAXs] [duration-seconds] ["h2 postgresql"] ["jdbc jpa"]
# (auto:600s: each configuration warms until its JIT has finished and its throughput is flat, at most 600 s; the
# warm-up each took is in the table)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
warmup=${1:-90}
duration=${2:-60}
dbs=${3:-"h2 postgresql"}
accesses=${4:-"jdbc jpa"}
case $warmup in auto*) warmup_flag=$warmup ;; *) warmup_flag="${warmup}s" ;; esac
bench_out trade-pages "$@"
printf 'db,dataAccess,pages,pagesPerSecond,sutCpuSeconds,databaseCpuSeconds,pagesPerCpuSecond,p50Ms,p99Ms,errors,audit,steady,warmupSeconds\n' >"$out/runs.csv"

for db in $dbs; do
  for access in $accesses; do
    dir="$out/$db-$access"
    ./perflab run trade --db "$db" --data-access "$access" --clients 50 --warmup "$warmup_flag" \
      --duration "${duration}s" --heap 1g --gc g1 --seed 1 --quiet --out "$dir" >"$dir.log" 2>&1 || true
    python3 - "$dir/summary.json" "$db" "$access" >>"$out/runs.csv" <<'PY'
import json, sys
f, db, access = sys.argv[1:]
try:
    s = json.load(open(f))
    sut = s["processes"]["sut"]["cpuSeconds"]
    others = sum(p["cpuSeconds"] or 0 for name, p in s["processes"].items() if name != "sut")
    pages = s["successes"]
    audit = s.get("checks", {}).get("audit", {}).get("status", "none")
    print(f"{db},{access},{pages},{s['throughput']:.0f},{sut:.1f},{others:.1f},{pages / (sut + others):.0f},"
          f"{s['latencyMs']['p50']:.2f},{s['latencyMs']['p99']:.2f},{s['errors']['total']},{audit},{s['steady']['steady']},"
          f"{json.load(open(f.replace('summary.json', 'run.json'))).get('warmupSeconds') or 0:.0f}")
except Exception as e:
    print(f"{db},{access},,,,,,,,,failed: {e},,")
PY
    tail -1 "$out/runs.csv"
  done
done

python3 - "$out/runs.csv" <<'PY' | tee "$out/result.md"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| db | data access | warm-up s | steady | pages/s | SUT CPU s | database CPU s | pages per CPU-second | p50 ms | p99 ms | errors | audit |")
print("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|")
for r in rows:
    print(f"| {r['db']} | {r['dataAccess']} | {r['warmupSeconds']} | {r['steady']} | {r['pagesPerSecond']} | {r['sutCpuSeconds']} | {r['databaseCpuSeconds']} | "
          f"{r['pagesPerCpuSecond']} | {r['p50Ms']} | {r['p99Ms']} | {r['errors']} | {r['audit']} |")
by = {(r["db"], r["dataAccess"]): r for r in rows}
for db in sorted({r["db"] for r in rows}):
    try:
        ratio = float(by[(db, "jdbc")]["pagesPerCpuSecond"]) / float(by[(db, "jpa")]["pagesPerCpuSecond"])
        print(f"\n{db}: jdbc / jpa = {ratio:.2f} pages per CPU-second (Trade 2: JDBC 1.32x EJB)")
    except (KeyError, ValueError, ZeroDivisionError):
        pass
PY
echo "results in $out"
