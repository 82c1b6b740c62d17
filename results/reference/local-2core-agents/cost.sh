#!/bin/bash
# control cluster cost: 2 local agents, a noop open loop at 10 op/s for 90 s; agents' CPU and control-port traffic over 60 s
cd "$(dirname "$0")"  # with cpbench.jar copied here
java -jar cpbench.jar load --topology attach --cluster-name stock --connect 127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703 --agents 2 --mix get --rate 10 --clients 2 --threads 1 --duration 90s --warmup 0s --cluster-warmup 0s --scenario client-smart --out cost > cost.out 2> cost.err &
coord=$!
for i in $(seq 1 120); do grep -q "agents\]" cost.err && break; sleep 1; done
sleep 10
agents=$(pgrep -f "cpbench.jar agent")
hz() { for p in $agents; do awk '{print $14+$15}' /proc/$p/stat; done; awk '{print $14+$15}' /proc/$coord/stat; }
bytes() { ss -tin state established '( ( sport >= :5801 and sport <= :5830 ) or ( dport >= :5801 and dport <= :5830 ) )' | grep -o "bytes_sent:[0-9]*" | cut -d: -f2 | paste -sd+ | bc; }
t0=$(hz | paste -sd' '); b0=$(bytes); s0=$(date +%s.%N)
sleep 60
t1=$(hz | paste -sd' '); b1=$(bytes); s1=$(date +%s.%N)
echo "agents: $agents coordinator: $coord"
echo "ticks before: $t0"; echo "ticks after:  $t1"; echo "control bytes sent (all control sockets): $b0 -> $b1"; echo "seconds: $(echo "$s1 - $s0" | bc)"
wait $coord; echo "load rc=$?"
