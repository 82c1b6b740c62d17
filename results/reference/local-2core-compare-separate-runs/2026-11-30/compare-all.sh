#!/bin/bash
# every ordered pair of the four same-build quick matrices, and each planted run against the same-build runs beside it
set -u
cd "$(git rev-parse --show-toplevel)"  # run from a clone of cp-bench
O="${1:-results/runs/compare-study}"  # holds cmp/1-U ... cmp/6-U, each a matrix run's --out
run() { ls -d $O/cmp/$1/*/ | head -1; }
mkdir -p $O/compare
for a in 1-U 3-U 4-U 6-U; do for b in 1-U 3-U 4-U 6-U; do
  [ $a = $b ] && continue
  ./cpbench compare $(run $a) $(run $b) --markdown $O/compare/$a-vs-$b.md > $O/compare/$a-vs-$b.txt 2>&1; echo "exit $?" >> $O/compare/$a-vs-$b.txt
done; done
for p in "1-U 2-P" "3-U 2-P" "4-U 5-P" "6-U 5-P"; do set -- $p
  ./cpbench compare $(run $1) $(run $2) --markdown $O/compare/$1-vs-$2.md > $O/compare/$1-vs-$2.txt 2>&1; echo "exit $?" >> $O/compare/$1-vs-$2.txt
done
