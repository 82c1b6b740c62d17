#!/bin/bash
# control cluster alone: 2 agents started by hand, idle (no coordinator, no run), 60 s
cd "$(dirname "$0")"  # with cpbench.jar copied here
java -jar cpbench.jar agent --control 127.0.0.1:5801,127.0.0.1:5802 --name idle-1 > idle-1.log 2>&1 &
a1=$!
sleep 8
java -jar cpbench.jar agent --control 127.0.0.1:5801,127.0.0.1:5802 --name idle-2 > idle-2.log 2>&1 &
a2=$!
sleep 20
bytes() { ss -tin state established '( ( sport >= :5801 and sport <= :5830 ) or ( dport >= :5801 and dport <= :5830 ) )' | grep -o "bytes_sent:[0-9]*" | cut -d: -f2 | paste -sd+ | bc; }
hz() { for p in $a1 $a2; do awk '{print $14+$15}' /proc/$p/stat; done; }
t0=$(hz | paste -sd' '); b0=$(bytes); sleep 60; t1=$(hz | paste -sd' '); b1=$(bytes)
echo "ticks $t0 -> $t1; bytes $b0 -> $b1"
kill $a1 $a2; wait
tail -n 2 idle-1.log idle-2.log
