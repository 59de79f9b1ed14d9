#!/usr/bin/env bash
# Issue 11, "Performance": the voicemail SUT's cost at a rate with zero failures, repeated, as converged operations
# per SUT CPU-second (goal: at least 1,000, with p95 NOTIFY-to-200 under 60 ms) and SIP messages per SUT CPU-second.
# The study's blade did 931 / (8 cores x 0.65) = 179 converged operations per core-second.
#
# One `perflab tune` experiment of one configuration repeated REPEAT times (the runs interleave nothing, so the spread
# is the machine's noise): each run starts the SUT, the three SIPp peers and the browsers' driver, warms up WARM s and
# measures MEASURE s. Per run, from summary.json: figures.sutCpuPerOperationUs (SUT CPU in the window / converged
# operations finished in it), figures.sipMessagesPerSecond over the SUT's CPU share, figures.notifyTo200Ms.p95 (SUT,
# log-linear buckets), failed calls, and the SIPp peers' own CPU per SIP message (the driver's cost, reported apart).
# A run with any failure is marked and left out of the mean.
#
# Usage: bench/voicemail-cost.sh [RATE [HOLD [REPEAT [WARM [MEASURE]]]]]   (defaults 200, 10s, 3, 40, 60)
# Env: HEAP=1g, CLIENTS=16, USERS=200000, JDK (a java home for the SUT, e.g. /usr/lib/jvm/temurin-25-jdk-amd64).
# Run it on a quiet machine; the machine and the command go into docs/BENCHMARKS.md with the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
rate=${1:-200}
hold=${2:-10s}
repeat=${3:-3}
warm=${4:-40}
measure=${5:-60}
[[ "$rate" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "RATE must be new users per second, not '$rate'" >&2; exit 2; }
[[ "$repeat" =~ ^[1-9][0-9]?$ ]] || { echo "REPEAT must be 1..99, not '$repeat'" >&2; exit 2; }
[[ "$warm" =~ ^[0-9]+$ && "$measure" =~ ^[1-9][0-9]*$ ]] || { echo "WARM and MEASURE are whole seconds" >&2; exit 2; }
command -v sipp >/dev/null || { echo "sipp is not installed (Debian: apt-get install sip-tester)" >&2; exit 2; }
out="bench/out/voicemail-cost-$(date +%Y%m%d-%H%M%S)"
mkdir -p bench/out
mvn -B -o -q package -DskipTests -pl cli,workloads/voicemail/stack-lean -am >/dev/null
java_home=()
[[ -n "${JDK:-}" ]] && java_home=(--java-home "$JDK")
./perflab tune voicemail --rate "$rate" --hold "$hold" --users "${USERS:-200000}" --clients "${CLIENTS:-16}" \
    --heap "${HEAP:-1g}" --warmup "${warm}s" --duration "${measure}s" --repeat "$repeat" "${java_home[@]}" \
    --name voicemail-cost --quiet --out "$out" >"$out.log" 2>&1 || { tail -5 "$out.log" >&2; exit 1; }
python3 - "$out" "$rate" <<'PY'
import json, pathlib, statistics, sys
out, rate = pathlib.Path(sys.argv[1]), float(sys.argv[2])
rows = []
for s in sorted(out.glob("*/rep-*/summary.json")):
    j = json.loads(s.read_text())
    f = j.get("figures") or {}
    sut = j.get("sut") or {}
    failed = int(f.get("failedCalls", 0)) + int((f.get("sippFailedCalls") or {}).get("total", 0)) + int(j["errors"]["total"])
    cpu_share = (sut.get("cpuPercent") or 0) / 100
    ops_per_cpu = 1e6 / f["sutCpuPerOperationUs"] if f.get("sutCpuPerOperationUs") else None
    msgs_per_cpu = f["sipMessagesPerSecond"] / cpu_share if cpu_share else None
    sipp = [p for n, p in (j.get("processes") or {}).items() if n in ("phone", "line", "notifier")]
    sipp_cpu = sum(p.get("cpuSeconds", 0) for p in sipp)
    sipp_us_per_msg = 1e6 * sipp_cpu / (f["sipMessagesPerSecond"] * j["durationSeconds"]) if f.get("sipMessagesPerSecond") else None
    rows.append((s.parent.name, f.get("convergedOperationsPerSecond"), ops_per_cpu, msgs_per_cpu,
                 (f.get("notifyTo200Ms") or {}).get("p95"), failed, sut.get("cpuPercent"), sipp_us_per_msg,
                 (j.get("gc") or {}).get("liveSetMb")))
print(f"voicemail at {rate:g} users/s: {out}")
print("| run | converged ops/s | ops per SUT CPU-s | SIP msgs per SUT CPU-s | p95 NOTIFY-to-200 (ms) | failures | SUT CPU % | SIPp µs/msg (3 peers) | live set MB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
fmt = lambda v, p=1: "—" if v is None else f"{v:,.{p}f}"
for r in rows:
    print(f"| {r[0]} | {fmt(r[1])} | {fmt(r[2],0)} | {fmt(r[3],0)} | {fmt(r[4],3)} | {r[5]} | {fmt(r[6])} | {fmt(r[7])} | {fmt(r[8])} |")
good = [r for r in rows if r[5] == 0 and r[2]]
if good:
    ops = [r[2] for r in good]; msgs = [r[3] for r in good]
    sd = lambda xs: statistics.stdev(xs) if len(xs) > 1 else 0.0
    print(f"\nmean over {len(good)} run(s) with no failure: {statistics.mean(ops):,.0f} ± {sd(ops):,.0f} converged operations "
          f"per SUT CPU-second, {statistics.mean(msgs):,.0f} ± {sd(msgs):,.0f} SIP messages per SUT CPU-second (± one sd)")
else:
    print("\nno run without failures: lower the rate")
PY
