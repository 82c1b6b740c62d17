#!/bin/bash
# live-cost: three pairs, interleaved (without/with, with/without, without/with), run --scenario client-leader --duration 20s on fresh clusters;
# with --live, a poller fetches /data.json and /metrics each second and records each request's time.
set -u
cd "$(git rev-parse --show-toplevel)"  # run from a clone of cp-bench
O="${1:-results/runs/live-cost}"  # where the six runs and the poll logs go
mkdir -p $O
one() { # $1 = tag, $2 = with|without
  if [ $2 = with ]; then
    ./cpbench run --scenario client-leader --duration 20s --live=18123 --out $O/$1 --no-history > $O/$1.log 2>&1 &
    pid=$!
    for s in $(seq 400); do   # bounded: 400 polls at most
      kill -0 $pid 2>/dev/null || break
      for p in data.json metrics; do
        curl -s -o /dev/null -m 5 -w "$(date +%s.%N) $p %{http_code} %{time_total}\n" http://127.0.0.1:18123/$p >> $O/$1-polls.txt
      done
      sleep 1
    done
    wait $pid; echo "exit $?" >> $O/$1.log
  else
    ./cpbench run --scenario client-leader --duration 20s --out $O/$1 --no-history > $O/$1.log 2>&1; echo "exit $?" >> $O/$1.log
  fi
}
one p1-without without; one p1-with with
one p2-with with; one p2-without without
one p3-without without; one p3-with with
