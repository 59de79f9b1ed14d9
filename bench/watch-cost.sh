#!/usr/bin/env bash
# What watching a server from a server file costs (issue 38: the server nothing, perflab under 1 % of a CPU with its
# samplers at 1 s). The same server, the same light load, two ways, interleaved:
#   watched:   `perflab run FILE`: perflab starts the server and samples its whole process tree every second (CPU,
#              memory, threads, network, the GC log, JIT CPU), besides driving it;
#   unwatched: the server started by `perflab serve FILE` (another process) and `perflab run --target URL`: the
#              driver alone, knowing nothing of the server.
# perflab's own CPU in the window (summary.json driver.cpuSeconds: the whole perflab JVM) in the watched run less the
# unwatched one is what watching costs perflab. The server's CPU over the window is read from /proc by this script
# for the unwatched run and from summary.json for the watched one: watching must not change it.
# The load is light (--rate, default 20 requests/s) so that the driver's own work is small beside what is compared.
#
# Usage: bench/watch-cost.sh [server-file] [workload] [repeats] [warmup-seconds] [duration-seconds] [rate]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
file=${1:-servers/tomcat-soap-echo.yaml}
workload=${2:-soap-echo}
repeats=${3:-3}
warmup=${4:-30}
duration=${5:-120}
rate=${6:-20}
bench_out watch-cost "$@"
printf 'repeat,way,perflabCpuSeconds,perflabCpuPercent,serverCpuPercent,serverProcesses,requests,errors\n' >"$out/runs.csv"
common=(--rate "$rate" --clients 4 --warmup "${warmup}s" --duration "${duration}s" --seed 1 --quiet)

# the CPU seconds (user + system) of a process and every process under it, from /proc
tree_cpu() {
  python3 - "$1" <<'PY'
import os, sys
root = int(sys.argv[1])
tick = os.sysconf("SC_CLK_TCK")
children, cpu = {}, {}
for p in os.listdir("/proc"):
    if not p.isdigit():
        continue
    try:
        stat = open(f"/proc/{p}/stat").read()
    except OSError:
        continue
    fields = stat[stat.rindex(")") + 2:].split()
    children.setdefault(int(fields[1]), []).append(int(p))
    cpu[int(p)] = (int(fields[11]) + int(fields[12])) / tick
total, n, todo = 0.0, 0, [root]
while todo:
    p = todo.pop()
    total += cpu.get(p, 0.0)
    n += 1
    todo.extend(children.get(p, []))
print(f"{total:.3f} {n}")
PY
}

stop_serve() {
  if [ -n "${serve_pid:-}" ] && kill -0 "$serve_pid" 2>/dev/null; then
    # TERM, not INT: a job started with & in a script ignores SIGINT
    kill -TERM "$serve_pid" 2>/dev/null || true
    wait "$serve_pid" 2>/dev/null || true
  fi
  serve_pid=
}
trap stop_serve EXIT

for i in $(seq 1 "$repeats"); do
  order="unwatched watched"
  [ $((i % 2)) -eq 0 ] && order="watched unwatched"
  for way in $order; do
    dir="$out/$way-$i"
    if [ "$way" = watched ]; then
      ./perflab run "$workload" --server "$file" "${common[@]}" --out "$dir" >"$dir.log" 2>&1 || true
      python3 - "$dir/summary.json" "$i" >>"$out/runs.csv" <<'PY'
import json, sys
f, i = sys.argv[1:]
try:
    s = json.load(open(f))
    print(f"{i},watched,{s['driver']['cpuSeconds']:.3f},{s['driver']['cpuPercent']:.3f},{s['sut']['cpuPercent']:.3f},"
          f"{s['sut'].get('processes', 1)},{s['successes']},{s['errors']['total']}")
except Exception as e:
    print(f"{i},watched,,,,,,failed: {e}")
PY
    else
      ./perflab serve "$file" --port 0 --out "$dir-serve" >"$dir-serve.log" 2>&1 &
      serve_pid=$!
      for _ in $(seq 1 300); do
        grep -q "perflab: serving" "$dir-serve.log" && break
        kill -0 "$serve_pid" 2>/dev/null || break
        sleep 1
      done
      url=$(sed -n 's/^perflab: serving .* at \(http[^ ]*\).*/\1/p' "$dir-serve.log")
      server_pid=$(sed -n 's/^perflab: serving .*, pid \([0-9]*\)) at .*/\1/p' "$dir-serve.log")
      if [ -z "$url" ] || [ -z "$server_pid" ]; then
        echo "$i,unwatched,,,,,,failed: the server did not come up (see $dir-serve.log)" >>"$out/runs.csv"
        stop_serve
        continue
      fi
      ./perflab run "$workload" --target "$url" "${common[@]}" --out "$dir" >"$dir.log" 2>&1 &
      run_pid=$!
      # the server's CPU over the middle of the measured window (perflab's JVM starts in about 2 s, then warms up)
      sleep $((warmup + 10))
      read -r before n <<<"$(tree_cpu "$server_pid")"
      sleep $((duration - 20))
      read -r after n <<<"$(tree_cpu "$server_pid")"
      wait "$run_pid" || true
      stop_serve
      python3 - "$dir/summary.json" "$i" "$before" "$after" "$((duration - 20))" "$n" >>"$out/runs.csv" <<'PY'
import json, sys
f, i, before, after, seconds, n = sys.argv[1:]
try:
    s = json.load(open(f))
    server = (float(after) - float(before)) * 100 / float(seconds)
    print(f"{i},unwatched,{s['driver']['cpuSeconds']:.3f},{s['driver']['cpuPercent']:.3f},{server:.3f},{n},"
          f"{s['successes']},{s['errors']['total']}")
except Exception as e:
    print(f"{i},unwatched,,,,,,failed: {e}")
PY
    fi
    tail -1 "$out/runs.csv"
  done
done
python3 - "$out/runs.csv" <<'PY' | tee "$out/result.md"
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["errors"] == "0" and r["perflabCpuPercent"]]
print("| way | runs | perflab CPU, % of one core (mean, min-max) | server CPU, % of one core (mean, min-max) |")
print("|---|---:|---:|---:|")
means = {}
for way in ("unwatched", "watched"):
    rs = [r for r in rows if r["way"] == way]
    if not rs:
        print(f"| {way} | 0 | — | — |")
        continue
    p = [float(r["perflabCpuPercent"]) for r in rs]
    s = [float(r["serverCpuPercent"]) for r in rs]
    means[way] = (statistics.mean(p), statistics.mean(s))
    print(f"| {way} | {len(rs)} | {statistics.mean(p):.2f} ({min(p):.2f}-{max(p):.2f}) | "
          f"{statistics.mean(s):.2f} ({min(s):.2f}-{max(s):.2f}) |")
if len(means) == 2:
    print()
    print(f"Watching costs perflab {means['watched'][0] - means['unwatched'][0]:+.2f} % of one core "
          f"(goal: under 1 %); the server's CPU moves {means['watched'][1] - means['unwatched'][1]:+.2f} % of one core.")
PY
echo "results in $out"
