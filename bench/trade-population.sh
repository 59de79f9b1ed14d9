#!/usr/bin/env bash
# How long trade's population takes (DayTrader's default: 15,000 users x 10,000 quotes), and the audit after it,
# on the embedded H2 (in memory, then in a file, whose size is printed) or on any JDBC URL given.
#
# Usage: bench/trade-population.sh [users] [quotes] [jdbc-url]
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:-15000}
quotes=${2:-10000}
module=workloads/trade/stack-lean
cp_file=$(mktemp)
trap 'rm -f "$cp_file"' EXIT
# one reactor build (-am): the workspace's own trade-contract is on the class path, not an installed one; the
# module built last, this one, writes the file last
mvn -B -o -q -pl "$module" -am test-compile org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile="$cp_file" \
  -Dmdep.includeScope=test >/dev/null
cp="$module/target/classes:$module/target/test-classes:$(cat "$cp_file")"
run() { java -Xmx1g -cp "$cp" perflab.trade.lean.data.PopulationTiming "$users" "$quotes" "$1"; }
if [ $# -ge 3 ]; then
  run "$3"
  exit
fi
echo "H2 in memory:"
run "jdbc:h2:mem:trade"
dir=$(mktemp -d)
echo "H2 file ($dir):"
run "jdbc:h2:file:$dir/trade"
du -h "$dir"/trade.mv.db
rm -rf "$dir"
