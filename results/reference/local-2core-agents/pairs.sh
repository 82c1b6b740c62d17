#!/bin/bash
# issue 39 item 6 on one cluster: 2 local agents x 4 threads against 1 process x 8 threads, alternated, on one stock 3-member cluster
cd "$(dirname "$0")"  # with cpbench.jar copied here
common="--topology attach --cluster-name stock --connect 127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703 --mix cas --clients 1 --threads 8 --duration 10s --warmup 2s --cluster-warmup 3s --scenario client-smart --quiet"
for i in 1 2 3 4 5 6; do
  if [ $((i % 2)) = 1 ]; then order="single agents"; else order="agents single"; fi
  for kind in $order; do
    extra=""; [ $kind = agents ] && extra="--agents 2"
    echo "== $(date +%T) pair $i $kind" >> progress.log
    timeout 200 java -jar cpbench.jar load $common $extra --out runs-$kind-$i > $kind-$i.log 2>&1
    echo "rc=$? $(grep -m1 'client-smart \[load\]' $kind-$i.log)" >> progress.log
  done
done
echo "== $(date +%T) done" >> progress.log
