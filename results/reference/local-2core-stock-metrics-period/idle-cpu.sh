#!/bin/bash
# idle member CPU (ticks/s summed over 3 members) for a metrics period
cd /work/main
p=$1; port=$2
java -cp benchmarks/target/cpbench.jar io.cpbench.bench.cli.CpBench stock-cluster --hazelcast-version 5.3.8 --members 3 --metrics-period $p --for 100s --base-port $port --dir /tmp/mcost/c$p-$port > /tmp/mcost/c$p-$port.log 2>&1 &
sleep 35
pids=$(pgrep -f "c$p-$port/member-.\.xml" | xargs)
t() { local s=0; for q in $pids; do read -r -a f < /proc/$q/stat; s=$((s+f[13]+f[14])); done; echo $s; }
a=$(t); sleep 60; b=$(t)
echo "period=$p pids=$(echo $pids | wc -w) ticks/60s=$((b-a))"
wait
