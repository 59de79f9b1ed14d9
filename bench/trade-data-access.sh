#!/usr/bin/env bash
# CPU per operation of trade's two data access modes, JDBC and JPA (Hibernate), calling the service directly (no web
# layer) on in-memory H2 or the JDBC URL given: DayTrader's home, quote, buy and sell in its mix's proportions, or one
# of them alone. Each run is a fresh JVM (populate, warm up, measure, audit); the modes alternate (jdbc jpa jdbc jpa
# ...) so that a change in the machine's load hits both. Prints each run's warm-up ramp and figures, then per
# operation the median operations per CPU-second of the benchmark's JVM for each mode, and their ratio.
#
# Usage: bench/trade-data-access.sh [rounds] [warm-up ops] [measured ops] [operations: mix,home,quote,buy,sell]
#        [jdbc-url]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
warmup=${2:-150000}
measured=${3:-100000}
operations=${4:-mix}
url=${5:-jdbc:h2:mem:trade-timing}
users=1000
quotes=1000
module=workloads/trade/stack-lean
cp_file=$(mktemp)
results=$(mktemp)
trap 'rm -f "$cp_file" "$results"' EXIT
# one reactor build (-am): the workspace's own trade-contract is on the class path, not an installed one; the
# module built last, this one, writes the file last
mvn -B -o -q -pl "$module" -am test-compile org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile="$cp_file" \
  -Dmdep.includeScope=test >/dev/null
cp="$module/target/classes:$module/target/test-classes:$(cat "$cp_file")"
# the collector named, so that a CPU-limited run does not fall back to Serial in one mode and not the other
jvm=(java -XX:+UseG1GC -Xms1g -Xmx1g -cp "$cp")
echo "trade data access on $url: $users users, $quotes quotes, $rounds rounds of $warmup warm-up + $measured measured operations"
for operation in ${operations//,/ }; do
  for ((r = 1; r <= rounds; r++)); do
    for mode in jdbc jpa; do
      "${jvm[@]}" perflab.trade.lean.DataAccessTiming "$mode" "$users" "$quotes" "$warmup" "$measured" "$operation" "$url" \
        | tee -a "$results"
    done
  done
done
echo
echo "median operations per CPU-second (process CPU, JIT and GC included):"
awk '
  / ops_per_cpu_s=/ {
    for (i = 1; i <= NF; i++) if ($i ~ /^ops_per_cpu_s=/) { split($i, kv, "="); v[$2 "," $1, ++n[$2 "," $1]] = kv[2] }
    if (!($2 in seen)) { seen[$2] = 1; order[++ops] = $2 }
  }
  function median(key,   k, i, j, t, a) {
    k = n[key]
    for (i = 1; i <= k; i++) a[i] = v[key, i] + 0
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  END {
    printf "%-6s %10s %10s %12s\n", "op", "jdbc", "jpa", "jdbc/jpa"
    for (o = 1; o <= ops; o++) {
      j = median(order[o] ",jdbc"); p = median(order[o] ",jpa")
      printf "%-6s %10.0f %10.0f %12.2f\n", order[o], j, p, j / p
    }
  }' "$results"
