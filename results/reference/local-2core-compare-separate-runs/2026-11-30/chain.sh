#!/bin/bash
# As it ran on 2026-11-30 (paths of that session: /tmp/study a clone of ce8cc67, /tmp/so the output); kept as the record.
# Studies for results/reference, run one after another from /tmp/study (ce8cc67), nothing else running.
set -u
cd /tmp/study
O=/tmp/so
S4=client-leader,client-follower,client-leader-aware,client-lb
stamp() { echo "=== $(date +%T) $*"; }
{
stamp build; ./cpbench --version
stamp lb-study
time ./cpbench lb-study --starts 20 --out $O/lb --no-history > $O/lb.log 2>&1; echo "exit $?" >> $O/lb.log
stamp emulator-cost
time ./cpbench emulator-cost --quick --pairs 6 --out $O/emu --no-history > $O/emu.log 2>&1; echo "exit $?" >> $O/emu.log
stamp live-cost
bash $O/live-pairs.sh > $O/live.log 2>&1
stamp compare-separate-runs
i=0
for kind in U P U U P U; do
  i=$((i+1))
  if [ $kind = P ]; then opts=-Dcpbench.plant.slowdown=10%; else opts=; fi
  stamp "matrix $i $kind"
  CPBENCH_JAVA_OPTS=$opts ./cpbench matrix --quick --scenario $S4 --out $O/cmp/$i-$kind --no-history > $O/cmp-$i-$kind.log 2>&1; echo "exit $?" >> $O/cmp-$i-$kind.log
done
stamp stock 150s
bash $O/stock150.sh > $O/stock150.log 2>&1
stamp maven gate
base=$(ls -d $O/cmp/1-U/*/ | head -1)
( time ./mvnw -o -B -Pbench verify -pl benchmarks -am -DskipTests -Dmaven.javadoc.skip=true "-Dcpbench.args=matrix --quick --scenario $S4 --no-history" -Dcpbench.baseline=$base -Dcpbench.out=$O/gate ) > $O/gate.log 2>&1; echo "exit $?" >> $O/gate.log
stamp done
} > $O/chain.log 2>&1
