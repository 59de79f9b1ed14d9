#!/usr/bin/env bash
# trade: where does the SUT's CPU per page go early in a long run, and where late? One run of jdbc on H2 (standard
# mix, from the restored population), with async-profiler attached to the SUT's JVM for the window's second minute
# and again for its second-to-last, and a table of the frames whose share of the SUT's CPU samples changed most
# between the two, by self time and by inclusive time (issue 36, section 4: CPU per page rose over 15 minutes and
# its cause was not shown). The CPU per page of each profiled minute is printed beside it, so that a change in the
# profile can be weighed against the change in cost.
#
# The profiles are taken with jcmd (JVMTI.agent_load of the library in Maven's cache), not with perflab's --profile,
# which covers the whole window; each jcmd costs its start-up, once at each minute's edge.
#
# Usage: bench/trade-cpu-profile.sh [minutes] [clients]     (defaults: 15 minutes, 16 clients)
#        bench/trade-cpu-profile.sh --analyse DIR [minutes]  (the tables again, from a run's kept files)
set -euo pipefail
cd "$(dirname "$0")/.."
analyse_only=
if [ "${1:-}" = --analyse ]; then
  [ -d "${2:-}" ] || { echo "trade-cpu-profile: --analyse needs the directory of an earlier run" >&2; exit 2; }
  analyse_only=$2
  shift 2
fi
minutes=${1:-15}
clients=${2:-16}
case "$minutes" in (''|*[!0-9]*|0|1|2|3) echo "trade-cpu-profile: minutes must be a whole number of at least 4, was '$minutes'" >&2; exit 2;; esac
case "$clients" in (''|*[!0-9]*|0) echo "trade-cpu-profile: clients must be a whole number above 0, was '$clients'" >&2; exit 2;; esac

analyse() { # $1: the bench's directory (early.collapsed, late.collapsed, run/)
  python3 - "$1" "$1/run" "$minutes" <<'PY'
import collections, csv, json, sys
out, run, minutes = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [r for r in csv.DictReader(open(f"{run}/timeseries.csv")) if r["phase"] == "measure"]

def cost(first, last):
    w = rows[first:last]
    pages = sum(float(r["successes"]) for r in w)
    cpu = sum(float(r["sutCpuPercent"] or 0) / 100 for r in w)
    return pages / len(w), cpu / pages * 1e6

def read(name):
    self_, total, samples = collections.Counter(), collections.Counter(), 0
    for line in open(f"{out}/{name}.collapsed"):
        stack, _, n = line.rstrip().rpartition(" ")
        n = int(n)
        frames = stack.split(";")
        samples += n
        self_[frames[-1]] += n
        for f in set(frames):
            total[f] += n
    return self_, total, samples

early_rate, early_cost = cost(60, 120)
late_rate, late_cost = cost((minutes - 2) * 60, (minutes - 1) * 60)
print(f"\nminute 2: {early_rate:.0f} pages/s, {early_cost:.0f} µs of SUT CPU per page; "
      f"minute {minutes - 1}: {late_rate:.0f} pages/s, {late_cost:.0f} µs per page ({late_cost / early_cost:.2f}x)\n")
e_self, e_total, e_n = read("early")
l_self, l_total, l_n = read("late")
print(f"samples: {e_n} early, {l_n} late\n")
for title, e, l in (("self", e_self, l_self), ("inclusive", e_total, l_total)):
    # a frame's share of the SUT's CPU times the cost per page: µs per page spent in it, early and late
    frames = set(e) | set(l)
    delta = sorted(frames, key=lambda f: -abs(l[f] / l_n * late_cost - e[f] / e_n * early_cost))
    print(f"### the 15 frames whose {title} µs per page changed most\n")
    print("| frame | early µs/page | late µs/page | change |")
    print("|---|---:|---:|---:|")
    for f in delta[:15]:
        a, b = e[f] / e_n * early_cost, l[f] / l_n * late_cost
        print(f"| `{f[:110]}` | {a:.1f} | {b:.1f} | {b - a:+.1f} |")
    print()
# minute by minute: the cost per page beside what G1 did in that minute (its pauses, its concurrent marking, the
# least heap left after a young collection, which is the live set), from the SUT's GC log
import datetime, re
young = re.compile(r"\[(\d+\.\d+)s\].*Pause Young.* (\d+)M->(\d+)M\(\d+M\) (\d+\.\d+)ms")
marking = re.compile(r"\[(\d+\.\d+)s\].*Concurrent Mark Cycle (\d+\.\d+)ms")
jvm_start = None
pauses, marks, live = collections.Counter(), collections.Counter(), {}
window_start = int(rows[0]["epochMs"]) / 1000
for line in open(f"{run}/gc.log"):
    m = re.match(r"\[(\S+)\]\[(\d+\.\d+)s\]", line)
    if m and jvm_start is None:
        wall = datetime.datetime.strptime(m.group(1)[:23], "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc)
        jvm_start = wall.timestamp() - float(m.group(2))
    for pattern, add in ((young, "young"), (marking, "mark")):
        g = pattern.search(line)
        if g and jvm_start is not None:
            minute = int((jvm_start + float(g.group(1)) - window_start) // 60)
            if add == "young":
                pauses[minute] += float(g.group(4)) / 1000
                live[minute] = min(live.get(minute, 1 << 30), int(g.group(3)))
            else:
                marks[minute] += float(g.group(2)) / 1000
print("| minute | pages/s | SUT CPU µs/page | SUT % of the machine | GC pauses s | concurrent marking s | live MB |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for m in range((len(rows) + 30) // 60):
    w = rows[m * 60:(m + 1) * 60]
    rate, per_page = cost(m * 60, min(len(rows), (m + 1) * 60))
    share = sum(float(r["sutCpuPercentOfMachine"] or 0) for r in w) / len(w)
    print(f"| {m + 1} | {rate:.0f} | {per_page:.0f} | {share:.0f} | {pauses[m]:.1f} | {marks[m]:.1f} | {live.get(m, '-')} |")
s = json.load(open(f"{run}/summary.json"))
audit = s.get("checks", {}).get("audit", {})
print(f"\n{s['successes']} pages, {s['errors']['total']} errors, {s['sut']['requestsPerCpuSecond']:.0f} pages per SUT "
      f"CPU-second, audit {audit.get('status')}: {audit.get('line')}; files: {out}")
PY
}

if [ -n "$analyse_only" ]; then
  analyse "$analyse_only"
  exit 0
fi

jar=$(ls "${MAVEN_REPO:-$HOME/.m2/repository}"/tools/profiler/async-profiler/4.1/async-profiler-4.1.jar 2>/dev/null || true)
[ -n "$jar" ] || { echo "trade-cpu-profile: async-profiler 4.1 is not in Maven's cache (mvn -o install -DskipTests fetches it)" >&2; exit 1; }
. bench/build-once.sh
bench_out trade-cpu-profile "$@"
out=$(cd "$out" && pwd)
unzip -q -o -j "$jar" linux-x64/libasyncProfiler.so -d "$out"
lib="$out/libasyncProfiler.so"
{
  echo "\`bench/trade-cpu-profile.sh $minutes $clients\` at $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo ' (with uncommitted changes)')"
  echo "host: $(bench/host)"
} >"$out/result.md"

run="$out/run"
./perflab run trade --clients "$clients" --warmup 60s --duration "${minutes}m" --heap 1g --gc g1 --seed 7 \
  --quiet --out "$run" >"$out/run.log" 2>&1 &
perflab=$!
cleanup() { kill "$perflab" 2>/dev/null || true; wait "$perflab" 2>/dev/null || true; }
trap cleanup EXIT
trap 'echo "interrupted: what was measured is in $out" >&2; exit 130' INT TERM

measured() { local n; n=$(grep -c ',measure,' "$run/timeseries.csv" 2>/dev/null || true); echo "${n:-0}"; }
# waits until the window has measured $1 seconds; fails if perflab ended first (bounded by the run's own length)
await() {
  while [ "$(measured)" -lt "$1" ]; do
    kill -0 "$perflab" 2>/dev/null || { echo "trade-cpu-profile: the run ended before second $1 of its window; see $out/run.log" >&2; exit 1; }
    sleep 1
  done
}
profile() { # $1 name, $2 first second of the window, $3 last
  await "$2"
  pid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pid"])' "$run/sut-jvm.json")
  # jcmd takes name=value words as its own options: the agent's options go in double quotes, one word
  jcmd "$pid" JVMTI.agent_load "$lib" "\"start,event=cpu,interval=10ms\"" >/dev/null
  await "$3"
  jcmd "$pid" JVMTI.agent_load "$lib" "\"stop,collapsed,file=$out/$1.collapsed\"" >/dev/null
  # jcmd exits 0 whatever the agent said; the agent says it on the SUT's output
  [ -s "$out/$1.collapsed" ] || { echo "trade-cpu-profile: no $1 profile; the SUT's output says: $(tail -2 "$run/sut.out")" >&2; exit 1; }
}
profile early 60 120
profile late $(( (minutes - 2) * 60 )) $(( (minutes - 1) * 60 ))
wait "$perflab" || true
trap - EXIT
analyse "$out" | tee -a "$out/result.md"
