#!/usr/bin/env bash
# The controller's merge cost: each agent's one-second report decoded and added into the merged second, at a
# merged rate split over 2, 4 and 8 agents (agents/src/test/.../MergeCostBench.java, timed on the thread's CPU
# clock after a warm-up pass). Goal (issue 18): under 1 % of a CPU at 100,000 req/s merged.
#
# Usage: bench/agents-merge.sh [rate] [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-100000}
seconds=${2:-60}
mvn -B -q -o -pl agents -am test-compile -Dsurefire.skip=true >/dev/null
cp_file=$(mktemp)
trap 'rm -f "$cp_file"' EXIT
mvn -B -q -o -pl agents dependency:build-classpath -Dmdep.outputFile="$cp_file" >/dev/null
cp="agents/target/test-classes:agents/target/classes:driver/target/classes:core/target/classes:$(cat "$cp_file")"
for agents in 2 4 8; do
  java -Xms512m -Xmx512m -XX:+UseG1GC -cp "$cp" perflab.agents.MergeCostBench "$rate" "$agents" "$seconds"
done
