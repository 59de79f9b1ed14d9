#!/usr/bin/env bash
# Issue 14, "Performance": what one session copy costs a replication pair in CPU, apart from the voicemail stack, so
# that a change to the grid (its configuration, the keys' owners) can be measured in minutes instead of a
# voicemail-replication.sh run. Both members of a PairGrid pair run in one JVM over TCP on loopback; one writes
# 400-byte replicas at RATE a second from one thread. For each kind, after WARM s of writing, the JVM's CPU over
# WINDOW s (every thread: both members, JIT, GC), less the same window of an idle pair, is divided by the copies.
# Kinds: keyed (users' copies under the keys the grid picks for them, one the writer owns: what a run does), mixed
# (keys as users' ids fall, half of them owned by the partner: what a run did before), local (every key's primary
# owner is the writer), remote (every key's primary owner is the partner: a replicated cache sends a write through
# the key's primary owner).
#
# Usage: bench/voicemail-copy-cost.sh [RATE [WARM [WINDOW [KINDS]]]]   (defaults 500, 60, 30, "idle keyed mixed local remote")
# Env: HEAP=256m, JAVA=java. Run it on a quiet machine; the machine and the command go into docs/BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-500}
warm=${2:-60}
window=${3:-30}
kinds=${4:-"idle keyed mixed local remote"}
[[ "$rate" =~ ^[1-9][0-9]*$ ]] || { echo "RATE must be copies per second, a positive whole number, not '$rate'" >&2; exit 2; }
[[ "$warm" =~ ^[0-9]+$ && "$window" =~ ^[1-9][0-9]*$ ]] || { echo "WARM and WINDOW are whole seconds" >&2; exit 2; }
for k in $kinds; do
  [[ "$k" =~ ^(idle|keyed|mixed|local|remote)$ ]] || { echo "a kind is idle, keyed, mixed, local or remote, not '$k'" >&2; exit 2; }
done
mod=workloads/voicemail/stack-lean
mkdir -p bench/out
log=bench/out/voicemail-copy-cost-$(date +%Y%m%d-%H%M%S).log
mvn -B -o -q install -DskipTests -pl $mod -am >"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
mvn -B -o -q test-compile dependency:build-classpath -pl $mod -Dmdep.outputFile=target/cp.txt \
  -Dmdep.includeScope=test >>"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
cp="$mod/target/test-classes:$mod/target/classes:$(cat $mod/target/cp.txt)"
echo "# $(nproc) CPUs, $(${JAVA:-java} -version 2>&1 | head -1), rate $rate/s, warm-up $warm s, window $window s"
printf '%-8s %8s %10s %12s\n' kind copies cpu-ms µs/copy
# shellcheck disable=SC2086
${JAVA:-java} -Xmx"${HEAP:-256m}" -XX:+UseG1GC -cp "$cp" perflab.voicemail.lean.replica.CopyCost "$rate" "$warm" \
  "$window" $kinds 2>>"$log" | python3 -c '
import sys
rows = [l.split() for l in sys.stdin if l.strip()]
idle = next((float(r[2]) for r in rows if r[0] == "idle"), 0.0)
for kind, copies, cpu, _ in rows:
    copies, cpu = int(copies), float(cpu)
    per = (cpu - idle) * 1000 / copies if copies else 0.0
    shown = "-" if kind == "idle" else f"{per:.1f}"
    print(f"{kind:<8} {copies:>8} {cpu:>10.1f} {shown:>12}")
'
