#!/usr/bin/env bash
# Driver CPU per request: perflab's driver against wrk, same SUT, same 16 connections, one script run.
# Marginal cost, so that JVM start-up and JIT are not charged: (CPU of a long run - CPU of a short run) /
# (requests of the long run - requests of the short run), for both tools, interleaved (A B A B).
# The SUT is pinned to CPU 0 and both drivers to CPU 1. wrk validates nothing; perflab checks every
# response's status and idout and compares 1% of them in full.
#
# Both runs are long enough that each driver's JIT has finished compiling its hot path (a JVM on one CPU is still
# compiling 10 s in), and the SUT is warmed up for 60 s first, so neither tool meets a server still compiling.
#
# Usage: bench/driver-vs-wrk.sh [short-seconds] [long-seconds] [repeats]     (needs: wrk, python3)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
short=${1:-20}
long=${2:-60}
repeats=${3:-2}
out="bench/out/driver-vs-wrk-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
command -v wrk >/dev/null || { echo "bench: wrk is needed (apt-get install wrk)" >&2; exit 1; }

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
./perflab serve soap-echo --port "$port" --cpus 0 --heap 512m --gc parallel --out "$out/sut" >"$out/serve.log" 2>&1 &
serve_pid=$!
# TERM, not INT: a background job of a non-interactive shell ignores SIGINT, and the SUT would outlive the script
trap 'kill -TERM $serve_pid 2>/dev/null; wait $serve_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do grep -q "serving" "$out/serve.log" && break; sleep 0.5; done
url=$(grep -o 'http://127.0.0.1:[0-9]*/[^ ]*' "$out/serve.log" | head -1)
[ -n "$url" ] || { echo "bench: the SUT did not start; see $out/serve.log" >&2; exit 1; }

./perflab request soap-echo --operation echoComplexTypeDoc --payload 1 >"$out/body.xml"
cat >"$out/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "text/xml; charset=UTF-8"
wrk.headers["SOAPAction"] = '""'
local f = io.open("$out/body.xml", "rb")
wrk.body = f:read("*a")
f:close()
LUA

# warm the SUT up once so that both tools meet a JIT-compiled server
taskset -c 1 wrk -t1 -c16 -d60s -s "$out/post.lua" "$url" >/dev/null

cpu() { tail -1 "$1" | awk '{print $2}'; }
run_wrk() { # seconds tag
  taskset -c 1 bench/cpu-of wrk -t1 -c16 -d"$1"s -s "$out/post.lua" "$url" >"$out/wrk-$2.out" 2>"$out/wrk-$2.err"
  echo "$(grep -o '[0-9]* requests in' "$out/wrk-$2.out" | awk '{print $1}') $(cpu "$out/wrk-$2.err")"
}
run_perflab() { # seconds tag
  taskset -c 1 bench/cpu-of ./perflab drive soap-echo --target "$url" --clients 16 --warmup 0s \
    --duration "$1"s --quiet --out "$out/perflab-$2" >"$out/perflab-$2.out" 2>"$out/perflab-$2.err"
  echo "$(python3 -c "import json;print(json.load(open('$out/perflab-$2/summary.json'))['requests'])") $(cpu "$out/perflab-$2.err")"
}

printf 'tool,seconds,repeat,requests,cpuSeconds\n' >"$out/runs.csv"
for r in $(seq 1 "$repeats"); do
  for tool in wrk perflab; do
    for secs in "$short" "$long"; do
      read -r reqs cpus < <(run_$tool "$secs" "$secs-$r")
      printf '%s,%s,%s,%s,%s\n' "$tool" "$secs" "$r" "$reqs" "$cpus" | tee -a "$out/runs.csv"
    done
  done
done

python3 - "$out/runs.csv" "$short" "$long" <<'PY' | tee "$out/result.md"
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
short, long = sys.argv[2], sys.argv[3]
per = collections.defaultdict(list)
for r in rows:
    per[(r["tool"], r["repeat"])].append(r)
marginal = collections.defaultdict(list)
for (tool, rep), rs in per.items():
    s = next(x for x in rs if x["seconds"] == short)
    l = next(x for x in rs if x["seconds"] == long)
    dreq = int(l["requests"]) - int(s["requests"])
    dcpu = float(l["cpuSeconds"]) - float(s["cpuSeconds"])
    marginal[tool].append(1e6 * dcpu / dreq)
wrk = sum(marginal["wrk"]) / len(marginal["wrk"])
perflab = sum(marginal["perflab"]) / len(marginal["perflab"])
print("| tool | marginal driver CPU per request (µs) | repeats |")
print("|---|---|---|")
print(f"| wrk (validates nothing) | {wrk:.2f} | {', '.join(f'{x:.2f}' for x in marginal['wrk'])} |")
print(f"| perflab drive (validates every response) | {perflab:.2f} | {', '.join(f'{x:.2f}' for x in marginal['perflab'])} |")
print(f"\nratio perflab / wrk = {perflab / wrk:.2f} (goal: at most 1.0)")
PY
echo "bench: files in $out"
