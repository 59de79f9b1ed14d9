#!/usr/bin/env bash
# claims gateways, lean against camel: gateway requests per gateway CPU-second for each mediation at request
# and response sizes {3k,3k} and {100k,100k}, plus route-on-body with the routing field late (the worst case
# of routing), the two stacks interleaved in one script run with the same driver settings (closed model,
# 16 clients, Parallel GC, 1 GiB heap). The back end runs in its own JVM (the default), so the SUT's CPU is
# the gateway's alone. Nothing is pinned: driver, gateway and back end share the machine's CPUs, which
# changes throughput but not CPU per request much.
#
# Goals (issue 6): lean >= 2x camel at {3,3}, >= 1.5x at {100,100}; lean route-on-body at {100,100} within
# 20 % of lean passthrough.
#
# Usage: bench/claims-stacks.sh [warmup-seconds] [duration-seconds] ["mediation:req:resp[:late] ..."] ["lean camel"]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
warmup=${1:-20}
duration=${2:-15}
all=""
for m in passthrough transform-value transform-namespace transform-schema route-on-body composite; do
  all="$all $m:3k:3k"
done
for m in passthrough transform-value transform-namespace transform-schema route-on-body composite; do
  all="$all $m:100k:100k"
done
all="$all route-on-body:100k:100k:late"
combos=${3:-$all}
stacks=${4:-"lean camel"}
bench_out claims-stacks "$@"
printf 'mediation,request,response,routing,stack,requestsPerCpuSecond,cpuMicrosPerRequest,throughput,errors,steady\n' >"$out/runs.csv"

for combo in $combos; do
  IFS=: read -r med req resp position <<<"$combo"
  position=${position:-early}
  for stack in $stacks; do
    dir="$out/$med-$req-$resp-$position-$stack"
    ./perflab run claims --stack "$stack" --operation "$med" --request-size "$req" --response-size "$resp" \
      --routing-field-position "$position" --clients 16 --warmup "${warmup}s" --duration "${duration}s" \
      --heap 1g --gc parallel --seed 1 --quiet --out "$dir" >"$dir.log" 2>&1 || true
    python3 - "$dir/summary.json" "$med" "$req" "$resp" "$position" "$stack" >>"$out/runs.csv" <<'PY'
import json, sys
f, med, req, resp, position, stack = sys.argv[1:]
try:
    s = json.load(open(f))
    print(f"{med},{req},{resp},{position},{stack},{s['sut']['requestsPerCpuSecond']:.0f},{s['sut']['cpuMicrosPerRequest']:.1f},"
          f"{s['throughput']:.0f},{s['errors']['total']},{s['steady']['steady']}")
except Exception as e:
    print(f"{med},{req},{resp},{position},{stack},,,,failed: {e},")
PY
    tail -1 "$out/runs.csv"
  done
done

python3 - "$out/runs.csv" <<'PY' | tee "$out/result.md"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault((r["mediation"], r["request"], r["response"], r["routing"]), {})[r["stack"]] = r
def num(r):
    try:
        return float(r["requestsPerCpuSecond"])
    except (KeyError, TypeError, ValueError):
        return None
print("| mediation | sizes | routing field | lean req/CPU-s | camel req/CPU-s | lean / camel | lean µs/req | camel µs/req | errors (lean, camel) |")
print("|---|---|---|---:|---:|---:|---:|---:|---|")
for k, v in by.items():
    lean, camel = v.get("lean", {}), v.get("camel", {})
    a, b = num(lean), num(camel)
    ratio = f"{a / b:.2f}x" if a and b else "—"
    print(f"| {k[0]} | {{{k[1]},{k[2]}}} | {k[3]} | {lean.get('requestsPerCpuSecond', '—')} | {camel.get('requestsPerCpuSecond', '—')} "
          f"| {ratio} | {lean.get('cpuMicrosPerRequest', '—')} | {camel.get('cpuMicrosPerRequest', '—')} "
          f"| {lean.get('errors', '—')}, {camel.get('errors', '—')} |")
print()
for stack in ("lean", "camel"):
    p = num(by.get(("passthrough", "100k", "100k", "early"), {}).get(stack, {}))
    for position in ("early", "late"):
        r = num(by.get(("route-on-body", "100k", "100k", position), {}).get(stack, {}))
        if p and r:
            print(f"- {stack}: route-on-body ({position} field) at {{100k,100k}} = {r / p:.2f} of passthrough's requests per CPU-second")
PY
echo "bench: files in $out"
