#!/usr/bin/env bash
# trade's lean stack against Open Liberty: where does each one's CPU per page go? Issue 40 asked lean to serve 3x
# liberty's pages per CPU-second and measured about 1x; both stacks run the same service code (trade-app) and the
# same SQL against H2 inside the JVM, so the container can only matter by its share. This runs each stack once with
# perflab's --profile cpu over the window (async-profiler on the SUT) and splits the SUT's CPU per page by layer:
#   database (org.h2), service (trade-app's shared code: perflab.trade.lean outside .web), web layer (each stack's
#   own pages: perflab.trade.lean.web, perflab.trade.liberty), container (Jetty, JTE and HikariCP; Liberty's
#   com.ibm / io.openliberty, Jasper, its pool), JPA (Hibernate; EclipseLink), JDK (java., jdk., sun.: charged to
#   their caller when one is known), JVM and kernel (samples with no Java frame: GC, JIT, the runtime's threads).
# A sample is charged to the innermost frame of a known layer, so that JDK work (a HashMap get, a String copy) counts
# for the layer that asked for it.
# Files: bench/out/trade-stack-profile-<time>/ (each run's directory with profile-sut.collapsed, layers.md).
#
# Usage: bench/trade-stack-profile.sh [warmup-requests] [duration-seconds] [access]   (defaults 1000000 60 jdbc)
#        bench/trade-stack-profile.sh --analyse DIR                                  (the table again)
set -euo pipefail
cd "$(dirname "$0")/.."

analyse() { # $1: the bench's directory, with lean/ and liberty/ run directories
  python3 - "$1" <<'PY'
import collections, json, os, sys
out = sys.argv[1]
LAYERS = [  # (layer, package prefixes), the first match wins; JDK last: its work is charged to its caller
    ("database (H2)", ("org.h2.",)),
    ("web layer (the stack's pages)", ("perflab.trade.lean.web.", "perflab.trade.liberty.", "perflab.trade.lean.site.")),
    ("service (trade-app, shared)", ("perflab.trade.",)),
    # compiled page templates, the stacks' own rendering: JTE's generated classes, Liberty's compiled JSPs
    ("page templates", ("gg.jte.generated.", "com.ibm._jsp.", "org.apache.jsp.", "_jsp.")),
    ("JPA provider", ("org.hibernate.", "org.eclipse.persistence.")),
    ("container", ("org.eclipse.jetty.", "gg.jte.", "com.zaxxer.hikari.", "com.ibm.", "io.openliberty.", "org.apache.jasper.",
                   "org.apache.el.", "org.osgi.", "org.eclipse.osgi.", "org.apache.felix.", "jakarta.", "javax.servlet.")),
]
def frame_name(f):
    f = f.replace("/", ".")
    for suffix in ("_[j]", "_[i]", "_[k]", "_[0]", "_[1]"):
        if f.endswith(suffix):
            return f[: -len(suffix)], suffix
    return f, ""

def layer_of(frames):
    java = False
    for raw in reversed(frames):
        name, suffix = frame_name(raw)
        for layer, prefixes in LAYERS:
            if name.startswith(prefixes):
                return layer
        # a Java frame: its class written with slashes (async-profiler's collapsed form), or annotated as Java
        if "/" in raw or suffix in ("_[j]", "_[i]", "_[1]"):
            java = True
    return "JDK (no application caller)" if java else "JVM and kernel (no Java frame: GC, JIT, runtime)"

rows, per_stack = [], {}
for stack in ("lean", "liberty"):
    run = os.path.join(out, stack)
    s = json.load(open(os.path.join(run, "summary.json")))
    cost = s["sut"]["cpuMicrosPerRequest"]
    counts, total = collections.Counter(), 0
    for line in open(os.path.join(run, "profile-sut.collapsed")):
        stack_text, _, n = line.rstrip().rpartition(" ")
        if not n.isdigit():
            continue
        counts[layer_of(stack_text.split(";"))] += int(n)
        total += int(n)
    errors = s["errors"]["total"]
    per_stack[stack] = (cost, counts, total, errors, s["throughput"], s["steady"]["steady"])
layers = [l for l, _ in LAYERS] + ["JDK (no application caller)", "JVM and kernel (no Java frame: GC, JIT, runtime)"]
lines = ["| layer | lean % | lean µs/page | liberty % | liberty µs/page | liberty - lean µs |", "|---|---:|---:|---:|---:|---:|"]
for l in layers:
    cells = []
    us = {}
    for stack in ("lean", "liberty"):
        cost, counts, total, _, _, _ = per_stack[stack]
        share = counts[l] / total if total else 0
        us[stack] = share * cost
        cells += [f"{share * 100:.1f}", f"{us[stack]:.0f}"]
    lines.append(f"| {l} | " + " | ".join(cells) + f" | {us['liberty'] - us['lean']:+.0f} |")
cells = []
for stack in ("lean", "liberty"):
    cost, _, total, errors, tput, steady = per_stack[stack]
    cells += ["100", f"{cost:.0f}"]
lines.append("| **all** | " + " | ".join(cells) + f" | {per_stack['liberty'][0] - per_stack['lean'][0]:+.0f} |")
lines.append("")
for stack in ("lean", "liberty"):
    cost, _, total, errors, tput, steady = per_stack[stack]
    lines.append(f"- {stack}: {total:,} samples, {tput:,.0f} pages/s, {cost:.0f} µs of SUT CPU per page "
                 f"({1e6 / cost:,.0f} pages per SUT CPU-second), errors {errors}, window steady: {'yes' if steady else 'no'}")
text = "\n".join(lines) + "\n"
open(os.path.join(out, "layers.md"), "w").write(text)
print(text)
PY
}

if [ "${1:-}" = --analyse ]; then
  [ -d "${2:-}" ] || { echo "trade-stack-profile: --analyse needs the directory of an earlier run" >&2; exit 2; }
  analyse "$2"
  exit 0
fi
warmup=${1:-1000000}
duration=${2:-60}
access=${3:-jdbc}
[[ "$warmup" =~ ^[0-9]+$ ]] || { echo "trade-stack-profile: warmup-requests must be a whole number, not '$warmup'" >&2; exit 2; }
[[ "$duration" =~ ^[1-9][0-9]*$ ]] || { echo "trade-stack-profile: duration must be whole seconds, not '$duration'" >&2; exit 2; }
[[ "$access" =~ ^(jdbc|jpa)$ ]] || { echo "trade-stack-profile: access is jdbc or jpa, not '$access'" >&2; exit 2; }
. bench/build-once.sh
bench_out trade-stack-profile "$@"
for stack in lean liberty; do
  # the same load as bench/trade-lean-vs-liberty.sh: 50 clients, the standard mix, 1 GB and G1, H2 in the SUT
  ./perflab run trade --stack "$stack" --data-access "$access" --db h2 --clients 50 --warmup 0s \
    --warmup-requests "$warmup" --duration "${duration}s" --heap 1g --gc g1 --seed 1 --quiet --profile cpu \
    --label "$(git rev-parse --short HEAD)" --out "$out/$stack" >"$out/$stack.log" 2>&1 \
    || { echo "trade-stack-profile: the $stack run failed (exit $?): $out/$stack.log" >&2; exit 1; }
done
analyse "$out"
echo "results: $out"
