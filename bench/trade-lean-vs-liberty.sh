#!/usr/bin/env bash
# trade's two stacks side by side: lean (Jetty core, JTE, HikariCP, Hibernate) against liberty (perflab's Jakarta EE
# 10 application on Open Liberty 26: servlets, Jakarta Pages, the container's pool, EclipseLink behind a session
# bean), in both data access modes and on both databases, with the same driver, mix and population. Interleaved
# repeats in one script run, the stack order alternating. Figures: pages per CPU-second of the server side (the SUT,
# plus PostgreSQL's own processes when it is the database), p50 and p99, and how long the warm-up judge took. Only
# error-free runs count; a pair without one on either side prints no ratio.
# Goal (issue 40): lean >= 3x liberty's pages per CPU-second on jdbc/H2 (as lean is 6x CXF on soap-echo).
# Both JVMs get the same heap and collector; perflab's own stacks run with -XX:-BackgroundCompilation and a server
# file's JVM with the JVM's defaults (run.json lists each JVM's flags).
#
# Usage: bench/trade-lean-vs-liberty.sh [repeats] [warmup] [duration-seconds] ["access:db ..."]
#   defaults: 3 auto:15m 60 "jdbc:h2 jpa:h2 jdbc:postgresql jpa:postgresql"
#   warmup: what --warmup takes (auto:15m, 10m), or requests:N for --warmup-requests N (both stacks the same count;
#   experiments/trade-liberty-warmup-ramp.yaml measured Liberty still climbing after 400,000)
# Each liberty run is about 30 s of start, up to 15 min of warm-up and the window: the default matrix is hours.
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
warmup=${2:-auto:15m}
duration=${3:-60}
combos=${4:-"jdbc:h2 jpa:h2 jdbc:postgresql jpa:postgresql"}
[[ "$repeats" =~ ^[1-9][0-9]*$ ]] || { echo "bench: repeats must be a positive whole number, not '$repeats'" >&2; exit 2; }
[[ "$duration" =~ ^[1-9][0-9]*$ ]] || { echo "bench: duration must be whole seconds, not '$duration'" >&2; exit 2; }
for combo in $combos; do
  [[ "$combo" =~ ^(jdbc|jpa):(h2|postgresql)$ ]] || { echo "bench: '$combo' is not access:db (jdbc|jpa:h2|postgresql)" >&2; exit 2; }
done
. bench/build-once.sh
bench_out trade-lean-vs-liberty "$@"
printf 'repeat,access,db,stack,pagesPerServerCpuSecond,sutCpuMicrosPerPage,dbCpuMicrosPerPage,throughput,p50Ms,p99Ms,warmupSeconds,warmupEndedBy,pages,errors,steady\n' >"$out/runs.csv"
if [[ "$warmup" =~ ^requests:([1-9][0-9]*)$ ]]; then
  warm=(--warmup 0s --warmup-requests "${BASH_REMATCH[1]}")
else
  warm=(--warmup "$warmup")
fi
common=(--clients 50 "${warm[@]}" --duration "${duration}s" --heap 1g --gc g1 --seed 1 --quiet --label "$(git rev-parse --short HEAD)")
for i in $(seq 1 "$repeats"); do
  # the order alternates, so that neither stack always runs on a machine the other has just loaded
  order="lean liberty"
  [ $((i % 2)) -eq 0 ] && order="liberty lean"
  for combo in $combos; do
    access=${combo%%:*}
    db=${combo##*:}
    for stack in $order; do
      dir="$out/$access-$db-$stack-$i"
      ./perflab run trade --stack "$stack" --data-access "$access" --db "$db" "${common[@]}" --out "$dir" \
        >"$dir.log" 2>&1 || true
      python3 - "$dir/summary.json" "$i" "$access" "$db" "$stack" >>"$out/runs.csv" <<'PY'
import json, sys
f, i, access, db, stack = sys.argv[1:]
try:
    s = json.load(open(f))
    n = s["successes"]
    database = s.get("database") or {}
    # PostgreSQL's processes are the server side too; H2 runs inside the SUT
    per_second = database.get("requestsPerSutAndDatabaseCpuSecond", s["sut"]["requestsPerCpuSecond"])
    db_micros = database.get("cpuMicrosPerRequest", 0)
    print(f"{i},{access},{db},{stack},{per_second:.1f},{s['sut']['cpuMicrosPerRequest']:.1f},{db_micros:.1f},"
          f"{s['throughput']:.0f},{s['latencyMs']['p50']:.2f},{s['latencyMs']['p99']:.2f},"
          f"{s['warmup']['seconds']:.0f},{s['warmup']['endedBy']},{n},{s['errors']['total']},{s['steady']['steady']}")
except Exception as e:
    print(f"{i},{access},{db},{stack},,,,,,,,,,failed: {e},")
PY
      tail -1 "$out/runs.csv"
    done
  done
done
python3 - "$out/runs.csv" <<'PY' | tee "$out/result.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
good = [r for r in rows if r["errors"] == "0"]
print("| access | db | stack | runs (error-free of all) | pages per server CPU-s (median, min-max) | SUT µs/page | DB µs/page | p50 ms | p99 ms | warm-up s (how ended) |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
medians = {}
keys = []
for r in rows:
    k = (r["access"], r["db"])
    if k not in keys:
        keys.append(k)
for access, db in keys:
    for stack in ("lean", "liberty"):
        all_runs = [r for r in rows if (r["access"], r["db"], r["stack"]) == (access, db, stack)]
        rs = [r for r in good if (r["access"], r["db"], r["stack"]) == (access, db, stack)]
        if not rs:
            print(f"| {access} | {db} | {stack} | 0 of {len(all_runs)} | — | — | — | — | — | — |")
            continue
        v = [float(r["pagesPerServerCpuSecond"]) for r in rs]
        med = lambda name: statistics.median(float(r[name]) for r in rs)
        medians[(access, db, stack)] = statistics.median(v)
        ended = ", ".join(sorted({r["warmupEndedBy"] for r in rs}))
        print(f"| {access} | {db} | {stack} | {len(rs)} of {len(all_runs)} | {statistics.median(v):.0f} ({min(v):.0f}-{max(v):.0f}) "
              f"| {med('sutCpuMicrosPerPage'):.0f} | {med('dbCpuMicrosPerPage'):.0f} | {med('p50Ms'):.2f} | {med('p99Ms'):.2f} "
              f"| {med('warmupSeconds'):.0f} ({ended}) |")
print()
for access, db in keys:
    lean, liberty = medians.get((access, db, "lean")), medians.get((access, db, "liberty"))
    if lean and liberty:
        goal = " (goal: 3x or more)" if (access, db) == ("jdbc", "h2") else ""
        print(f"- {access}/{db}: lean serves {lean / liberty:.2f}x liberty's pages per server CPU-second{goal}")
    else:
        print(f"- {access}/{db}: no ratio, a stack has no error-free run")
PY
echo "bench: files in $out"
