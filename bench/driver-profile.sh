#!/usr/bin/env bash
# Where the driver's CPU goes over its measured window, the window bench/driver-vs-wrk.sh charges it for: the SUT
# (`serve soap-echo`) pinned to CPU 0 as there, perflab's driver (16 clients) pinned to CPU 1 and warmed up, then
# async-profiler (from Maven's cache, loaded into the running driver JVM by bench/AgentLoad.java) sampling its CPU
# for SECONDS inside the window. Attached after the warm-up, so the start-up and the JIT's first minute, which the
# bench does not charge, do not crowd the profile.
#
# Prints, as shares of all samples (result.md): each thread; the event loop split into its system calls and its own
# Java; that Java's hottest frames, self and inclusive. The driver's CPU per request without the profiler is the
# second run's (the profiler's sampling costs the profiled run a few µs a request).
#
# Usage: bench/driver-profile.sh [warmup-seconds] [profile-seconds] [operation]   (defaults 60 15 echoComplexTypeDoc)
set -euo pipefail
cd "$(dirname "$0")/.."
warmup=${1:-60}
seconds=${2:-15}
operation=${3:-echoComplexTypeDoc}
jar=$(ls ~/.m2/repository/tools/profiler/async-profiler/*/async-profiler-*.jar 2>/dev/null | grep -v sources | tail -1)
[ -n "$jar" ] || { echo "bench: async-profiler is not in Maven's cache (mvn -q install -DskipTests fetches it)" >&2; exit 1; }
. bench/build-once.sh
. bench/serve-sut.sh
bench_out driver-profile "$@"
unzip -q -o -d "$out/profiler" "$jar" 'linux-x64/libasyncProfiler.so'
library=$(realpath "$out/profiler/linux-x64/libasyncProfiler.so")

serve_sut soap-echo --cpus 0 --heap 512m --gc parallel

drive() { # tag
  taskset -c 1 ./perflab drive soap-echo --target "$url" --operation "$operation" --clients 16 --warmup "$warmup"s \
    --duration $((seconds + 10))s --quiet --out "$out/drive-$1" >"$out/drive-$1.out" 2>&1
}
drive profiled &
driving=$!
sleep $((warmup + 5))
pid=$(pgrep -f "perflab-cli.jar drive soap-echo --target $url" | head -1)
[ -n "$pid" ] || { echo "bench: the driver is not running; see $out/drive-profiled.out" >&2; exit 1; }
java bench/AgentLoad.java "$pid" "$library" "start,event=cpu,interval=1ms,threads"
sleep "$seconds"
java bench/AgentLoad.java "$pid" "$library" "stop,file=$(realpath "$out")/driver.collapsed,collapsed"
wait $driving || { echo "bench: the profiled drive failed; see $out/drive-profiled.out" >&2; exit 1; }
drive plain || { echo "bench: the second drive failed; see $out/drive-plain.out" >&2; exit 1; }

python3 - "$out" "$(cat "$out/commit.txt")" "$(cat "$out/host.txt")" "$warmup" "$seconds" "$operation" <<'PY' | tee "$out/result.md"
import collections, json, re, sys
out, commit, host, warmup, seconds, operation = sys.argv[1:7]
threads, loop, own, incl = (collections.Counter() for _ in range(4))
total = 0
for line in open(f"{out}/driver.collapsed"):
    stack, n = line.rsplit(" ", 1)
    n = int(n)
    frames = stack.split(";")
    total += n
    threads[re.sub(r"\d+", "N", frames[0])] += n
    if "driver-loop" not in frames[0]:
        continue
    call = next((f[len("__x64_sys_"):-len("_[k]")] for f in frames if f.startswith("__x64_sys_")), None)
    loop[call or "the rest: Java (perflab, Netty, the JDK) and system-call entry"] += n
    if call is None:
        own[frames[-1]] += n
        for f in set(frames[1:]):
            incl[f] += n
def pct(v):
    return f"{100 * v / total:.1f} %"
def run(tag):
    s = json.load(open(f"{out}/drive-{tag}/summary.json"))
    return s["throughput"], 1e6 * s["driver"]["cpuSeconds"] / max(1, s["successes"]), s["errors"]["total"]
print(f"`bench/driver-profile.sh {warmup} {seconds} {operation}` at {commit}; host: {host}\n")
for tag in ("profiled", "plain"):
    rate, us, errors = run(tag)
    print(f"- {tag} run: {rate:,.0f} req/s, driver {us:.2f} µs/req over its window, {errors} errors")
print(f"\n{total} samples over {seconds} s of the window.\n\n| thread | share |\n|---|---:|")
for k, v in threads.most_common(8):
    print(f"| {k.strip('[]')} | {pct(v)} |")
print("\n| the event loop's time in | share |\n|---|---:|")
for k, v in loop.most_common(8):
    print(f"| {k} | {pct(v)} |")
print("\n| the event loop's Java: hottest frames, self | share |\n|---|---:|")
for k, v in own.most_common(15):
    print(f"| `{k}` | {pct(v)} |")
print("\n| perflab's frames in it, inclusive | share |\n|---|---:|")
for k, v in [(k, v) for k, v in incl.most_common(200) if k.startswith("perflab/")][:15]:
    print(f"| `{k}` | {pct(v)} |")
PY
echo "bench: files in $out (driver.collapsed opens in any flame-graph viewer)"
