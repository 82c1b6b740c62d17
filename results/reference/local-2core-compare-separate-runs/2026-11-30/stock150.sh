#!/bin/bash
# As it ran on 2026-11-30 (paths of that session: /tmp/study a clone of ce8cc67, /tmp/so the output); kept as the record.
# one client of one build on one running stock cluster, 150 s, progress every second
set -u
cd /tmp/study
O=/tmp/so/stock
mkdir -p $O
./cpbench stock-cluster --for 8m --dir $O/cluster > $O/cluster.log 2>&1 &
cpid=$!
for s in $(seq 180); do grep -q "attach with:" $O/cluster.log && break; sleep 1; done
sleep 5
./cpbench run --topology attach --cluster-name stock --connect 127.0.0.1:5801 --network direct --scenario client-leader --duration 150s --progress 1s --out $O/run --no-history > $O/run.log 2>&1; echo "exit $?" >> $O/run.log
kill -INT $cpid; for s in $(seq 60); do kill -0 $cpid 2>/dev/null || break; sleep 1; done; kill -9 $cpid 2>/dev/null
