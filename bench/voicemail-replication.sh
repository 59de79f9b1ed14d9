#!/usr/bin/env bash
# Issue 14, "Performance": what copying each user's session to the partner instance costs, as converged operations
# per SUT CPU-second with --replication off, end-of-service and every-message, in one script run (goal: every-message
# at least 75 % of off). The study's node did 931 operations/s at 65 % CPU standalone and 349 at 72 % with HA: about
# a third of the standalone rate per unit of CPU.
#
# One `perflab tune` experiment: voicemail as 2 instances (a replication pair) behind haproxy and Kamailio, the three
# modes interleaved REPEAT times, each run warming up WARM s and measuring MEASURE s at RATE new users per second.
# Per mode, from summary.json: figures.sutCpuPerOperationUs (both instances' CPU in the window over the converged
# operations), the copies written per operation and their bytes, failed calls (a run with any is left out).
#
# Usage: bench/voicemail-replication.sh [RATE [HOLD [REPEAT [WARM [MEASURE]]]]]   (defaults 60, 10s, 3, 120, 60: at 60 users/s the SUT still spent 40 % of its CPU compiling after 40 s of warm-up, 13-17 % after 120 s)
# Env: HEAP=512m (each instance), CLIENTS=16, USERS=200000. Needs sipp, haproxy and kamailio (.ci/run installs them).
# Run it on a quiet machine; the machine and the command go into docs/BENCHMARKS.md with the figures.
#        bench/voicemail-replication.sh --summary DIR   (the table again, from a finished run's directory)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
if [[ "${1:-}" == "--summary" ]]; then
  [[ -f "${2:-}/experiment.yaml" ]] || { echo "--summary needs the directory of a finished run, not '${2:-}'" >&2; exit 2; }
  out=$2
  rate=$(awk '$1 == "rate:" { print $2; exit }' "$out/experiment.yaml")
else
rate=${1:-60}
hold=${2:-10s}
repeat=${3:-3}
warm=${4:-120}
measure=${5:-60}
[[ "$rate" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "RATE must be new users per second, not '$rate'" >&2; exit 2; }
[[ "$hold" =~ ^[0-9]+(ms|s|m)$ ]] || { echo "HOLD is a time such as 10s, not '$hold'" >&2; exit 2; }
[[ "$repeat" =~ ^[1-9][0-9]?$ ]] || { echo "REPEAT must be 1..99, not '$repeat'" >&2; exit 2; }
[[ "$warm" =~ ^[0-9]+$ && "$measure" =~ ^[1-9][0-9]*$ ]] || { echo "WARM and MEASURE are whole seconds" >&2; exit 2; }
for tool in sipp haproxy kamailio; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (Debian: sip-tester, haproxy, kamailio)" >&2; exit 2; }
done
stamp=$(date +%Y%m%d-%H%M%S)
out="bench/out/voicemail-replication-$stamp"
mkdir -p bench/out
spec="bench/out/voicemail-replication-$stamp.yaml"
cat > "$spec" <<YAML
name: voicemail-replication
description: converged operations per SUT CPU-second, replication off / end-of-service / every-message
workload: voicemail
instances: 2
rate: $rate
hold: $hold
users: ${USERS:-200000}
clients: ${CLIENTS:-16}
heap: ${HEAP:-512m}
warmup: ${warm}s
duration: ${measure}s
repeat: $repeat
matrix:
  replication: [off, end-of-service, every-message]
YAML
mvn -B -o -q package -DskipTests >/dev/null
./perflab tune "$spec" --quiet --out "$out" >"$out.log" 2>&1 || { tail -5 "$out.log" >&2; exit 1; }
fi
python3 - "$out" "$rate" <<'PY'
import json, pathlib, statistics, sys
out, rate = pathlib.Path(sys.argv[1]), float(sys.argv[2])
modes = {}
def peer_ratio(j):
    procs = j.get("processes") or {}
    peers = sum((procs.get(p) or {}).get("cpuSeconds") or 0 for p in ("phone", "line", "notifier"))
    sut = (j.get("sut") or {}).get("cpuSeconds")
    return sut / peers if sut and peers else None
for s in sorted(out.glob("*/rep-*/summary.json")):
    j = json.loads(s.read_text())
    f = j.get("figures") or {}
    mode = s.parent.parent.name.split("-replication-")[-1]
    failed = int(f.get("failedCalls", 0)) + int((f.get("sippFailedCalls") or {}).get("total", 0)) + int(j["errors"]["total"])
    r = f.get("replication") or {}
    modes.setdefault(mode, []).append(dict(run=s.parent.name, failed=failed, us=f.get("sutCpuPerOperationUs"),
        ops=f.get("convergedOperationsPerSecond"), writes=r.get("writesPerOperation"), bytes=r.get("bytesPerOperation"),
        notify=(f.get("notifyTo200Ms") or {}).get("p95"), cpu=(j.get("sut") or {}).get("cpuPercent"),
        # the JIT compilers' share of the SUT's CPU in the window: a large one means a system still warming
        jit=None if not (j.get("sut") or {}).get("cpuSeconds") else
            (j["sut"].get("jitCpuSeconds") or 0) / j["sut"]["cpuSeconds"],
        # the SUT's CPU over the SIPp peers' in the same window: the peers do the same work in every mode, so the
        # ratio cancels what the host's speed does to all processes alike (up to 60 % between repetitions here)
        per_peer=peer_ratio(j)))
print(f"voicemail, 2 instances, {rate:g} users/s: {out}")
print("| replication | runs without failure | converged ops/s | SUT µs per operation | ops per SUT CPU-s | share of off | JIT share of SUT CPU | ops per SUT CPU-s without the JIT | share of off | share of off, SUT CPU over the SIPp peers' | copies per op | bytes per op | p95 NOTIFY-to-200 ms |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
mean = lambda xs: statistics.mean(xs) if xs else None
fmt = lambda v, p=1: "—" if v is None else f"{v:,.{p}f}"
base = base_warm = base_peer = None
for mode in ("off", "end-of-service", "every-message"):
    good = [r for r in modes.get(mode, []) if r["failed"] == 0 and r["us"]]
    us = mean([r["us"] for r in good])
    per_cpu = 1e6 / us if us else None
    jit = mean([r["jit"] for r in good if r["jit"] is not None])
    # the same with the compilers' CPU taken out: what a warm system would spend
    us_warm = mean([r["us"] * (1 - r["jit"]) for r in good if r["jit"] is not None])
    per_cpu_warm = 1e6 / us_warm if us_warm else None
    per_peer = mean([r["per_peer"] for r in good if r["per_peer"] is not None])
    if mode == "off":
        base, base_warm, base_peer = per_cpu, per_cpu_warm, per_peer
    share = None if not (base and per_cpu) else 100 * per_cpu / base
    share_warm = None if not (base_warm and per_cpu_warm) else 100 * per_cpu_warm / base_warm
    print(f"| {mode} | {len(good)}/{len(modes.get(mode, []))} | {fmt(mean([r['ops'] for r in good]))} | {fmt(us)} | "
          f"{fmt(per_cpu, 0)} | {fmt(share)} % | {fmt(None if jit is None else 100 * jit)} % | {fmt(per_cpu_warm, 0)} | "
          f"{fmt(share_warm)} % | {fmt(None if not (base_peer and per_peer) else 100 * base_peer / per_peer)} % | "
          f"{fmt(mean([r['writes'] for r in good if r['writes'] is not None]), 2)} | "
          f"{fmt(mean([r['bytes'] for r in good if r['bytes'] is not None]), 0)} | {fmt(mean([r['notify'] for r in good if r['notify'] is not None]), 3)} |")
PY
