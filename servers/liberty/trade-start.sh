#!/bin/sh
# perflab's trade on Open Liberty, started by servers/trade-liberty.yaml: the database restored to its populated
# state first (PrepareDatabase, the lean stack's own restore, which also writes the data source's connection
# properties into the server's configuration), then Liberty in the foreground, as the process perflab measures.
# Arguments: --db h2|postgresql --db-url URL --users N --quotes N --statement-cache N --cache N
# --quote-cache distributed-map|caffeine (the workload's flags and the file's settings).
set -eu
: "${PERFLAB_HOME:?PERFLAB_HOME must name perflab's directory}" "${WLP_HOME:?WLP_HOME must name Liberty's home}"
: "${JAVA_HOME:?JAVA_HOME must name the JDK}" "${RUN_DIR:?RUN_DIR must name the run directory}"
stack="$PERFLAB_HOME/workloads/trade/stack-liberty/target/stack"
war="$PERFLAB_HOME/workloads/trade/webapp-liberty/target/trade-liberty.war"
for built in "$stack" "$war"; do
  if [ ! -e "$built" ]; then
    echo "trade-liberty: $built is missing: build perflab first (mvn -q install -DskipTests, or ./perflab)" >&2
    exit 1
  fi
done
server="$WLP_HOME/usr/servers/trade"
# the restore's JVM is gone before Liberty starts: it is not measured beside the server
"$JAVA_HOME/bin/java" -Xmx512m -cp "$stack/*" perflab.trade.liberty.PrepareDatabase "$@" \
  --work-dir "$RUN_DIR/trade-h2" --jvm-options "$server/jvm.options" --write "$server/trade-db.xml"
# bin/server run ends in exec java: Liberty's JVM is then the process perflab started, and SIGTERM stops it cleanly
exec "$WLP_HOME/bin/server" run trade
