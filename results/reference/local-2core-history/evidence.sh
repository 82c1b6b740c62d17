#!/bin/bash
# The history evidence: quick runs of client-leader across 3 commits and 2 member releases, a planted slowdown
# (every connection through the emulator's proxies) in commit 3's 5.4.0 runs.
cd /tmp/ev
for c in b61b332 5793eb4 4604dfa; do
  for i in 1 2 3 4 5; do
    for rel in 5.4.0 5.3.8; do
      extra=""
      if [ "$c" = 4604dfa ] && [ "$rel" = 5.4.0 ]; then extra="--network emulated-all"; fi
      if [ "$rel" = 5.3.8 ]; then extra="$extra --hazelcast-version 5.3.8"; fi
      start=$(date +%s)
      timeout 300 java -jar /tmp/ev/jars/cpbench-$c.jar run --scenario client-leader --quick --out /tmp/ev/evruns \
        --history /tmp/ev/history.db --label env=evidence $extra > /tmp/ev/log-$c-$i-$rel.txt 2>&1
      rc=$?
      echo "$c $i $rel rc=$rc $(( $(date +%s) - start ))s $(grep -h 'history:' /tmp/ev/log-$c-$i-$rel.txt) $(grep -h '^| client-leader' /tmp/ev/log-$c-$i-$rel.txt)" >> /tmp/ev/evidence.log
    done
  done
done
echo DONE >> /tmp/ev/evidence.log
