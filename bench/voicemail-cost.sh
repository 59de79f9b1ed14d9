#!/usr/bin/env bash
# The voicemail SUT's cost below its capacity, repeated, as converged operations per SUT CPU-second (goal: at least
# 1,000, with p95 NOTIFY-to-200 under 60 ms) and SIP messages per SUT CPU-second. The study's blade did
# 931 / (8 cores x 0.65) = 179 converged operations per core-second.
#
# Issue 36: the figures this replaces (920/924 and 1,029) were computed by hand from the nominal rate x the window,
# and one of them from a single unsteady trial at the capacity's edge. Here each figure is the SUT's CPU in the window
# over the operations the SUT itself counted in it (its stats page's hang-ups: figures.sutCpuPerOperationUs), at 25 %,
# 50 % and 75 % of CAPACITY (the rate search's result on the same host), REPEAT runs at each rate; a run counts only
# if it had no failure and its window was steady (summary.json steady), and the others are listed as left out.
#
# Per run, from summary.json: figures.sutCpuPerOperationUs, figures.sipMessagesPerSecond over the SUT's CPU share,
# figures.notifyTo200Ms.p95 (SUT, log-linear buckets), failed calls, steadiness, and the SIPp peers' own CPU per SIP
# message (the driver's cost, reported apart).
#
# Usage: bench/voicemail-cost.sh [CAPACITY [HOLD [REPEAT [WARM [MEASURE]]]]]   (defaults 1200, 10s, 3, 60, 60)
#        RATES="300 600" bench/voicemail-cost.sh ...   (rates given directly instead of 25/50/75 % of CAPACITY)
# Env: HEAP=1g, CLIENTS=16, USERS=200000, JDK (a java home for the SUT, e.g. /usr/lib/jvm/temurin-25-jdk-amd64).
# Run it on a quiet machine; the host, the commit and the command go into its result.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/build-once.sh
capacity=${1:-1200}
hold=${2:-10s}
repeat=${3:-3}
warm=${4:-60}
measure=${5:-60}
[[ "$capacity" =~ ^[0-9]+$ ]] || { echo "CAPACITY must be new users per second, not '$capacity'" >&2; exit 2; }
rates=${RATES:-$((capacity / 4)) $((capacity / 2)) $((capacity * 3 / 4))}
for rate in $rates; do
  [[ "$rate" =~ ^[1-9][0-9]*$ ]] || { echo "RATES must be whole users per second, not '$rate'" >&2; exit 2; }
done
[[ "$repeat" =~ ^[1-9][0-9]?$ ]] || { echo "REPEAT must be 1..99, not '$repeat'" >&2; exit 2; }
[[ "$warm" =~ ^[0-9]+$ && "$measure" =~ ^[1-9][0-9]*$ ]] || { echo "WARM and MEASURE are whole seconds" >&2; exit 2; }
command -v sipp >/dev/null || { echo "sipp is not installed (Debian: apt-get install sip-tester)" >&2; exit 2; }
bench_out voicemail-cost "$@"
java_home=()
[[ -n "${JDK:-}" ]] && java_home=(--java-home "$JDK")
for rate in $rates; do
  ./perflab tune voicemail --rate "$rate" --hold "$hold" --users "${USERS:-200000}" --clients "${CLIENTS:-16}" \
      --heap "${HEAP:-1g}" --warmup "${warm}s" --duration "${measure}s" --repeat "$repeat" "${java_home[@]}" \
      --name "voicemail-cost-$rate" --quiet --out "$out/rate-$rate" >"$out/rate-$rate.log" 2>&1 \
    || { tail -5 "$out/rate-$rate.log" >&2; exit 1; }
done
env_used="RATES=\"$rates\" HEAP=${HEAP:-1g} CLIENTS=${CLIENTS:-16} USERS=${USERS:-200000}${JDK:+ JDK=$JDK}"
python3 - "$out" "$capacity" "$hold $repeat $warm $measure" "$env_used" <<'PY' | tee "$out/result.md"
import json, pathlib, statistics, sys
out, capacity, args, env_used = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
print(f"`{env_used} bench/voicemail-cost.sh {capacity} {args}` at {(out / 'commit.txt').read_text().strip()}; "
      f"host: {(out / 'host.txt').read_text().strip()}\n")
print("| rate | run | converged ops/s | ops per SUT CPU-s | SIP msgs per SUT CPU-s | p95 NOTIFY-to-200 (ms) | failures | steady | SUT CPU % | SIPp µs/msg (3 peers) |")
print("|---:|---|---:|---:|---:|---:|---:|---|---:|---:|")
fmt = lambda v, p=1: "—" if v is None else f"{v:,.{p}f}"
by_rate = {}
for rate_dir in sorted(out.glob("rate-*/"), key=lambda d: int(d.name.split("-")[1])):
    rate = int(rate_dir.name.split("-")[1])
    for s in sorted(rate_dir.glob("**/summary.json")):
        j = json.loads(s.read_text())
        f = j.get("figures") or {}
        sut = j.get("sut") or {}
        failed = int(f.get("failedCalls", 0)) + int((f.get("sippFailedCalls") or {}).get("total", 0)) + int(j["errors"]["total"])
        steady = bool((j.get("steady") or {}).get("steady"))
        cpu_share = (sut.get("cpuPercent") or 0) / 100
        ops_per_cpu = 1e6 / f["sutCpuPerOperationUs"] if f.get("sutCpuPerOperationUs") else None
        msgs_per_cpu = f["sipMessagesPerSecond"] / cpu_share if cpu_share and f.get("sipMessagesPerSecond") else None
        sipp = [p for n, p in (j.get("processes") or {}).items() if n in ("phone", "line", "notifier")]
        sipp_cpu = sum(p.get("cpuSeconds", 0) for p in sipp)
        sipp_us = 1e6 * sipp_cpu / (f["sipMessagesPerSecond"] * j["durationSeconds"]) if f.get("sipMessagesPerSecond") else None
        print(f"| {rate} | {s.parent.relative_to(rate_dir)} | {fmt(f.get('convergedOperationsPerSecond'))} | {fmt(ops_per_cpu, 0)} | "
              f"{fmt(msgs_per_cpu, 0)} | {fmt((f.get('notifyTo200Ms') or {}).get('p95'), 3)} | {failed} | "
              f"{'yes' if steady else 'no'} | {fmt(sut.get('cpuPercent'))} | {fmt(sipp_us)} |")
        if failed == 0 and steady and ops_per_cpu:
            by_rate.setdefault(rate, []).append((ops_per_cpu, msgs_per_cpu))
print()
if not by_rate:
    print("no run was free of failures and steady: nothing to report")
    sys.exit(1)
for rate, good in sorted(by_rate.items()):
    ops = [g[0] for g in good]
    msgs = [g[1] for g in good if g[1]]
    spread = f" (min {min(ops):,.0f}, max {max(ops):,.0f})" if len(ops) > 1 else ""
    print(f"- {rate} users/s: {statistics.median(ops):,.0f} converged operations per SUT CPU-second, median of "
          f"{len(ops)} steady failure-free run(s){spread}; {statistics.median(msgs):,.0f} SIP messages per SUT CPU-second")
PY
echo "bench: files in $out"
