#!/usr/bin/env bash
# Issue 11 section 2: CPU per SIP message of perflab's own SIP stack (NettySipStack, workloads/voicemail/sip) against
# the JAIN-SIP reference implementation 1.3.0-91, each as the same stateful UAS (bench/sip-stacks: INVITE -> 180 +
# 200 with SDP, ACK absorbed, BYE -> 200) answering SIPp's built-in uac scenario at a fixed call rate on loopback.
#
# For each stack and rate: the UAS JVM starts (java -Xmx256m -XX:+UseG1GC, JDK on the PATH, nothing pinned), SIPp's uac
# places RATE calls/s with HOLD_MS between ACK and BYE; after WARM s the UAS JVM's CPU (utime + stime of
# /proc/<pid>/stat, every thread: I/O, workers, timers, JIT, GC) is read, and again MEASURE s later. SIP messages in the
# same window come from SIPp's -trace_counts file (cumulative, one row a second; interpolated to the two instants):
# every message SIPp sent or received, retransmissions included (each one is a message the UAS handled). A point is
# valid only with 0 failed calls, 0 retransmissions (either way) and 0 unexpected messages in the whole run. The
# machine's other load (all CPU time minus the UAS and SIPp) over the window is printed beside each point, so a
# disturbed point can be seen and run again.
#
# Usage: bench/voicemail-sip-stacks.sh [RATES [WARM [MEASURE]]]   (defaults "500 1000", 30, 60)
# Env: STACKS="netty jain" (order of the runs), HEAP=256m (both UAS JVMs), HOLD_MS=1000, WORKERS=4 (our worker pool; JAIN-SIP's THREAD_POOL_SIZE),
#      REPEAT=1, PARSER=1 to run the parser microbenchmark at the end (ours, pkts-sip 3.0.18, JAIN-SIP's),
#      SIPP_ARGS="-buff_size 4194304" (extra SIPp options, e.g. larger socket buffers), HOSTILE=1 to
#      send each UAS HostileInputTest's broken datagrams at the end and print what each answers, PORT=5090.
# Output: a table on stdout; everything (UAS logs and counters, SIPp's files, results.csv) in bench/out/.
# Builds: the voicemail-sip module jar (root build, offline, no install) and the standalone harness bench/sip-stacks.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
rates=${1:-"500 1000"}
warm=${2:-30}
measure=${3:-60}
stacks=${STACKS:-"netty jain"}
hold=${HOLD_MS:-1000}
workers=${WORKERS:-4}
repeat=${REPEAT:-1}
port=${PORT:-5090}
sipp_port=$((port + 1))
command -v sipp >/dev/null || { echo "sipp is not installed (Debian: apt-get install sip-tester)" >&2; exit 2; }
for r in $rates; do [[ "$r" =~ ^[1-9][0-9]*$ ]] || { echo "a rate must be a positive whole number, not '$r'" >&2; exit 2; }; done
[[ "$warm" =~ ^[0-9]+$ && "$measure" =~ ^[1-9][0-9]*$ ]] || { echo "WARM and MEASURE are whole seconds" >&2; exit 2; }

out="$root/bench/out/voicemail-sip-stacks-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
echo "output in $out"

echo "building workloads/voicemail/sip and bench/sip-stacks (offline)..."
mvn -B -o -q package -DskipTests -pl workloads/voicemail/sip -am >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
(cd bench/sip-stacks && mvn -B -o -q package dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
  -Dmdep.includeScope=runtime) >>"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
cp="$root/bench/sip-stacks/target/sip-stacks-bench-0-SNAPSHOT.jar:$(cat bench/sip-stacks/target/cp.txt)"
heap=${HEAP:-256m}
jvm=(-Xmx"$heap" -XX:+UseG1GC)

uas_pid=""
sipp_pid=""
cleanup() {
  for p in $sipp_pid $uas_pid; do
    kill "$p" 2>/dev/null || true
  done
  sleep 1
  for p in $sipp_pid $uas_pid; do
    kill -9 "$p" 2>/dev/null || true
  done
}
trap cleanup EXIT

hz=$(getconf CLK_TCK)
# "epoch utime+stime(ticks) of PID, of SIPp, all busy ticks of the machine, RSS kB of PID"
sample() {
  local now u s t
  now=$(date +%s.%N)
  read -r u s < <(awk '{print $14, $15}' "/proc/$1/stat")
  read -r t < <(awk '{print $14 + $15}' "/proc/$2/stat")
  local busy
  busy=$(awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat)
  local rss
  rss=$(awk '/^VmRSS/{print $2}' "/proc/$1/status")
  echo "$now $((u + s)) $t $busy $rss"
}
# sleeps until T0 + SECONDS (fractional epoch T0)
sleep_until() {
  local left
  left=$(awk -v t0="$1" -v s="$2" -v now="$(date +%s.%N)" 'BEGIN { d = t0 + s - now; printf "%.3f", (d > 0 ? d : 0) }')
  sleep "$left"
}
wait_port() {
  for _ in $(seq 1 100); do
    ss -Huln "sport = :$1" | grep -q . && return 0
    sleep 0.1
  done
  return 1
}

echo "stack,rate,repeat,dir" >"$out/runs.csv"
for rep in $(seq 1 "$repeat"); do
  for rate in $rates; do
    for stack in $stacks; do
      case $stack in
        netty) main=perflab.bench.sip.NettyUas ;;
        jain) main=perflab.bench.sip.JainSipUas ;;
        *) echo "unknown stack $stack (netty, jain)" >&2; exit 2 ;;
      esac
      dir="$out/$stack-$rate-$rep"
      mkdir -p "$dir"
      echo "== $stack at $rate calls/s (repeat $rep): warm-up ${warm}s, measured ${measure}s"
      java "${jvm[@]}" -Xlog:gc:file="$dir/gc.log" -cp "$cp" "$main" "$port" "$workers" >"$dir/uas.out" \
        2>"$dir/uas.err" &
      uas_pid=$!
      wait_port "$port" || { echo "the UAS did not bind $port" >&2; cat "$dir/uas.err" >&2; exit 1; }
      calls=$((rate * (warm + measure + 5)))
      limit=$((warm + measure + 60))
      (cd "$dir" && exec timeout --kill-after=5 $((limit + 30)) sipp "127.0.0.1:$port" -sn uac -i 127.0.0.1 \
        -p "$sipp_port" -r "$rate" -m "$calls" -d "$hold" -l $((rate * (hold / 1000 + 10))) \
        ${SIPP_ARGS:-} -timeout "${limit}s" -recv_timeout 10000 -nostdin -fd 1 -trace_stat -trace_counts -trace_err \
        >sipp.out 2>sipp.err) &
      sipp_pid=$!
      sleep 0.5
      sipp_real=$(pgrep -P "$sipp_pid" -x sipp) || { echo "SIPp did not start" >&2; cat "$dir/sipp.err" >&2; exit 1; }
      t0=$(date +%s.%N)
      sleep_until "$t0" "$warm"
      sample "$uas_pid" "$sipp_real" >"$dir/samples.txt"
      sleep_until "$t0" $((warm + measure))
      sample "$uas_pid" "$sipp_real" >>"$dir/samples.txt"
      # after the window (it forces a full GC): what the UAS holds at the rate
      jcmd "$uas_pid" GC.class_histogram 2>/dev/null | head -25 >"$dir/histogram.txt" || true
      rc=0
      wait "$sipp_pid" || rc=$?
      sipp_pid=""
      echo "$rc" >"$dir/sipp.rc"
      kill "$uas_pid"
      wait "$uas_pid" || true
      uas_pid=""
      echo "$stack,$rate,$rep,$dir" >>"$out/runs.csv"
      sleep 2
    done
  done
done

python3 - "$out" "$hz" "$(nproc)" <<'PY' | tee "$out/table.txt"
import csv, glob, os, sys
out, hz, ncpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))

def counts(d):
    f = glob.glob(os.path.join(d, "uac_*_counts.csv"))[0]
    lines = [l.rstrip("\n").split(";") for l in open(f) if l.strip()]
    head, data = lines[0], lines[1:]
    series = []
    for r in data:
        t = float(r[0].split("\t")[-1])
        vals = dict(zip(head[2:], (int(x) for x in r[2:] if x != "")))
        series.append((t, vals))
    return head[2:], series

def at(series, names, t, pick):
    # linear interpolation of the sum of columns over time
    def total(v):
        return sum(v.get(n, 0) for n in names if pick(n))
    prev = None
    for ts, v in series:
        if ts >= t:
            if prev is None:
                return total(v)
            (pt, pv) = prev
            f = (t - pt) / (ts - pt) if ts > pt else 1
            return total(pv) + f * (total(v) - total(pv))
        prev = (ts, v)
    return total(series[-1][1])

def stat_last(d):
    f = glob.glob(os.path.join(d, "uac_*_.csv"))[0]
    r = list(csv.reader(open(f), delimiter=";"))
    return dict(zip(r[0], r[-1]))

res = []
for r in rows:
    d = r["dir"]
    s = [l.split() for l in open(os.path.join(d, "samples.txt"))]
    (t1, u1, p1, b1, _), (t2, u2, p2, b2, rss) = [tuple(float(x) for x in l) for l in s]
    names, series = counts(d)
    msg = lambda n: n.endswith(("_Sent", "_Recv", "_Retrans", "_Unexp"))
    m = at(series, names, t2, msg) - at(series, names, t1, msg)
    final = series[-1][1]
    retrans = sum(v for n, v in final.items() if n.endswith("_Retrans"))
    unexp = sum(v for n, v in final.items() if n.endswith("_Unexp"))
    st = stat_last(d)
    failed = int(st.get("FailedCall(C)", -1))
    ok = int(st.get("SuccessfulCall(C)", -1))
    win = t2 - t1
    uas_cpu = (u2 - u1) / hz
    sipp_cpu = (p2 - p1) / hz
    other = (b2 - b1) / hz - uas_cpu - sipp_cpu
    per_call = m / max(1, (at(series, names, t2, lambda n: n == "0_INVITE_Sent") - at(series, names, t1, lambda n: n == "0_INVITE_Sent")))
    res.append(dict(stack=r["stack"], rate=int(r["rate"]), rep=r["repeat"], msgs_s=m / win, msgs_call=per_call,
                    cpu_pct=100 * uas_cpu / win, us_msg=1e6 * uas_cpu / m if m else float("nan"),
                    failed=failed, ok=ok, retrans=retrans, unexp=unexp, rss=rss / 1024,
                    sipp_pct=100 * sipp_cpu / win, other_pct=100 * other / win, rc=open(os.path.join(d, "sipp.rc")).read().strip()))

hdr = ["stack", "calls/s", "SIP msgs/s", "msgs/call", "UAS CPU %", "µs CPU/msg", "failed calls", "retrans", "unexp",
       "RSS MiB", "SIPp CPU %", "other CPU %", "valid"]
print("| " + " | ".join(hdr) + " |")
print("|" + "|".join(["---"] + ["---:"] * (len(hdr) - 1)) + "|")
with open(os.path.join(out, "results.csv"), "w") as f:
    w = csv.writer(f)
    w.writerow(hdr + ["repeat", "successful calls"])
    for x in res:
        valid = "yes" if x["failed"] == 0 and x["retrans"] == 0 and x["unexp"] == 0 and x["rc"] == "0" else "NO"
        cells = [x["stack"], x["rate"], f'{x["msgs_s"]:,.0f}', f'{x["msgs_call"]:.2f}', f'{x["cpu_pct"]:.1f}',
                 f'{x["us_msg"]:.1f}', x["failed"], x["retrans"], x["unexp"], f'{x["rss"]:.0f}', f'{x["sipp_pct"]:.1f}',
                 f'{x["other_pct"]:.1f}', valid]
        print("| " + " | ".join(str(c) for c in cells) + " |")
        w.writerow(cells + [x["rep"], x["ok"]])
print(f"\nUAS heap -Xmx{os.environ.get('HEAP', '256m')}; {ncpu} CPUs; CPU % of one CPU; window = the measured seconds; messages = every message SIPp sent or received "
      "(retransmissions included); valid = 0 failed, 0 retransmissions, 0 unexpected, SIPp exit 0")
PY

for d in "$out"/*/; do
  [[ -f "$d/uas.out" ]] && { echo "-- $(basename "$d"):"; grep -h "counters" "$d/uas.out" | cut -c1-600; }
done

if [[ "${PARSER:-0}" == 1 ]]; then
  echo "== parser microbenchmark (one thread, the INVITE and the 200 SIPp sends and receives)"
  java "${jvm[@]}" -cp "$cp" perflab.voicemail.sip.netty.ParserBench 5 5 | tee "$out/parser.txt"
fi

if [[ "${HOSTILE:-0}" == 1 ]]; then
  for stack in $stacks; do
    case $stack in netty) main=perflab.bench.sip.NettyUas ;; jain) main=perflab.bench.sip.JainSipUas ;; esac
    echo "== hostile datagrams against $stack (what comes back within 700 ms)"
    java "${jvm[@]}" -cp "$cp" "$main" "$port" "$workers" >"$out/hostile-$stack.uas.out" 2>"$out/hostile-$stack.uas.err" &
    uas_pid=$!
    wait_port "$port" || { echo "the UAS did not bind $port" >&2; exit 1; }
    java -cp "$cp" perflab.bench.sip.HostileProbe "$port" | tee "$out/hostile-$stack.txt"
    kill "$uas_pid"
    wait "$uas_pid" || true
    uas_pid=""
    echo "UAS stdout+stderr lines other than its own (stack traces, RI messages): $(cat "$out/hostile-$stack.uas.out" \
      "$out/hostile-$stack.uas.err" | grep -cv '^ready\|counters')"
    grep -h "counters" "$out/hostile-$stack.uas.out" | tr ',' '\n' | grep -E "dropped|rejected|listener|log|errors|5xx|4xx" \
      | grep -v '=0$' | tr '\n' ' ' || true
    echo
  done
fi
