#!/usr/bin/env bash
# haproxy.sh PORT INSTANCE_PORT... : writes haproxy-notes.cfg into the working directory (perflab runs a program
# companion in the run directory) from haproxy.cfg.in, one server per instance, and becomes haproxy in the
# foreground (-db), so that perflab's pid, its samples and its stop are haproxy's own.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: haproxy.sh PORT INSTANCE_PORT..." >&2
  exit 2
fi
port=$1
shift
cfg=haproxy-notes.cfg
sed "s/@PORT@/$port/" "$(dirname "$0")/haproxy.cfg.in" > "$cfg"
i=0
for instance in "$@"; do
  echo "    server sut-$i 127.0.0.1:$instance cookie sut-$i" >> "$cfg"
  i=$((i + 1))
done
exec haproxy -db -f "$cfg"
