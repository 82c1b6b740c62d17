#!/bin/bash
cd /tmp/mcost
for r in 1 2 3; do for p in 2s 1s; do
  s=$(date +%s.%N)
  out=$(java -cp cpbench-$p.jar io.cpbench.bench.cli.CpBench run --hazelcast-version 5.3.8 --members 3 --scenario client-leader --ops 300 --warmup 10 --cluster-warmup 0s --settle 1s --out /tmp/mcost/runs-$p 2>&1)
  e=$(echo "$(date +%s.%N) - $s" | bc)
  echo "$p round $r: $(echo "$out" | grep -o 'cluster ready in [0-9.]* s') ; total ${e} s; $(echo "$out" | grep -o 'OK  300 ops in [0-9.]* s  [0-9,]* op/s')"
done; done
