#!/usr/bin/env bash
# haproxy.sh PORT INSTANCE_HTTP_PORT... : writes haproxy-voicemail.cfg into the working directory (perflab runs a
# program companion in the run directory) from haproxy.cfg.in with one backend per instance, health-checked on its
# stats page, its partner (instance k xor 1, with an even number of instances) as the backup server, and becomes
# haproxy in the foreground (-db): perflab's pid, samples and stop are haproxy's own.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: haproxy.sh PORT INSTANCE_HTTP_PORT..." >&2
  exit 2
fi
port=$1
shift
cfg=haproxy-voicemail.cfg
sed -e "s/@PORT@/$port/" -e "s/@N@/$#/" "$(dirname "$0")/haproxy.cfg.in" > "$cfg"
ports=("$@")
n=${#ports[@]}
for ((i = 0; i < n; i++)); do
  cat >> "$cfg" <<BACKEND

backend sut-$i
    option httpchk GET /voicemail/stats
    server sut-$i 127.0.0.1:${ports[$i]} check inter 1s fall 2 rise 2 observe layer4 error-limit 1 on-error mark-down
BACKEND
  # with pairs, the partner takes the instance's users while it is down (the same rule as Kamailio's)
  if ((n % 2 == 0)); then
    echo "    server sut-$((i ^ 1))-backup 127.0.0.1:${ports[$((i ^ 1))]} check inter 1s fall 2 rise 2 backup" >> "$cfg"
  fi
done
exec haproxy -db -f "$cfg"
