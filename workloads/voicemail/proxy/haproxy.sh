#!/usr/bin/env bash
# haproxy.sh PORT INSTANCE_HTTP_PORT... : writes haproxy-voicemail.cfg into the working directory (perflab runs a
# program companion in the run directory) from haproxy.cfg.in with one backend per instance, health-checked on its
# stats page, and becomes haproxy in the foreground (-db): perflab's pid, samples and stop are haproxy's own.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: haproxy.sh PORT INSTANCE_HTTP_PORT..." >&2
  exit 2
fi
port=$1
shift
cfg=haproxy-voicemail.cfg
sed -e "s/@PORT@/$port/" -e "s/@N@/$#/" "$(dirname "$0")/haproxy.cfg.in" > "$cfg"
i=0
for instance in "$@"; do
  cat >> "$cfg" <<BACKEND

backend sut-$i
    option httpchk GET /voicemail/stats
    server sut-$i 127.0.0.1:$instance check inter 1s fall 2 rise 2
BACKEND
  i=$((i + 1))
done
exec haproxy -db -f "$cfg"
