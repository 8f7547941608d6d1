#!/bin/bash
# tests/golden/compare.sh BEFORE AFTER [gpu]: the golden diff (README.md here). Masks what differs between
# any two runs: times, run folders, the kit's version; with `gpu`, measured numbers too.
mask() {
  sed -E -e 's#(/[^ ]*/golden-[a-z]+|/tmp/(before|after))#OUT#g' \
   -e 's/[0-9]+ ms/N ms/g; s/"execution_time": [0-9]+/"execution_time": T/; s/tilelab [0-9a-f]{7}(-dirty)?/tilelab V/g; s/"kit_version": "[^"]*"/"kit_version": V/' \
   -e 's/^20[0-9-]{8}T[0-9:]{8}Z,/T,/' |
  if [ "$GPU" = gpu ]; then sed -E '/waiting for (another grade|other grades) to finish/d; s/[0-9]+\.[0-9]+/F/g; s/[0-9]+ samples/N samples/g; s/(naive|cuBLAS FP32|yours) [0-9]+/\1 N/g; s/[0-9]+ (checked )?elements wrong/N \1elements wrong/g; s/(row|col) [0-9]+/\1 N/g; s/[0-9]+ GFLOP\/s/N GFLOP\/s/g; s/baseline [0-9]+/baseline N/g; s/\((faster|slower)\)/(faster|slower)/g; s/ \(noisy: stopped at the sample cap above 1 %; a busy GPU\? grade again\)//g'; else cat; fi
}
GPU=$3; rc=0
for f in $(cd $1 && find . -name '*.txt' -o -name results.json -o -name history.csv | sort); do
  [ "$(basename $f)" = summary.txt ] && continue
  case " $RACY " in *" $(echo $f | cut -d/ -f2 | sed 's/\.txt$//') "*) continue ;; esac
  if [ "$(basename $f)" = history.csv ]; then diff <(mask < $1/$f | sort) <(mask < $2/$f | sort | grep -v ',lab8,') > /tmp/golden.diff && continue; echo "=== $f"; cat /tmp/golden.diff; rc=1; continue; fi
  if ! diff <(mask < $1/$f) <(mask < $2/$f) > /tmp/golden.diff 2>&1; then echo "=== $f"; head -${LINES_PER:-8} /tmp/golden.diff; rc=1; fi
done
diff <(sed -E 's/ [0-9]+ ms//' $1/summary.txt | sort) <(sed -E 's/ [0-9]+ ms//' $2/summary.txt | sort) && echo "summary (exit codes, scores): same"
exit $rc
