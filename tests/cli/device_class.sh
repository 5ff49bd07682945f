#!/usr/bin/env bash
# The device class on the command line: `portkern info` lists every class compiled in and which the CPU can
# execute and uses; `portkern select` reports the class chosen at run time, and PORTKERN_CPU_CLASS forces one
# the CPU can execute (a name it cannot use is one `error:` line naming it, exit 1).
# Usage: device_class.sh PATH/TO/portkern
set -uo pipefail
portkern=$1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

info=$("$portkern" info --no-measure) || fail "info exited $?"
for class in cpu-avx512 cpu-avx2 cpu-generic cuda-sm90 cuda-generic; do
  grep -q "^$class " <<< "$info" || fail "info does not list $class"
done
grep -Eq '^cpu-generic +any CPU +yes +cpu +' <<< "$info" || fail "info: cpu-generic is not compiled and runnable on cpu"
used=$(awk '$1 ~ /^cpu-/ && $NF == "cpu" { print $1 }' <<< "$info")
[[ $(wc -w <<< "$used") == 1 ]] || fail "info: not exactly one CPU class used by cpu: '$used'"

line=$("$portkern" select gemm --shapes square | head -n 1)
[[ $line == "device class $used (deployment deploy/$used/; chosen at run time: "* ]] || fail "select says: $line"

runnable=$(awk '$1 ~ /^cpu-/ && $(NF-1) == "cpu" { print $1 }' <<< "$info")   # the "runs on" column
grep -qw cpu-generic <<< "$runnable" || fail "info: cpu-generic does not run on cpu"
for class in $runnable; do
  line=$(PORTKERN_CPU_CLASS=$class "$portkern" select gemm --shapes square | head -n 1)
  [[ $line == "device class $class (deployment deploy/$class/; forced by PORTKERN_CPU_CLASS)" ]] || fail "forced $class: $line"
done

PORTKERN_CPU_CLASS=cpu-sse9 "$portkern" select gemm --shapes square > /dev/null 2> err
status=$?
[[ $status == 1 ]] || fail "PORTKERN_CPU_CLASS=cpu-sse9 exited $status"
[[ $(tail -n 1 err) == "error: "*"PORTKERN_CPU_CLASS = cpu-sse9"* ]] || fail "PORTKERN_CPU_CLASS=cpu-sse9: $(tail -n 1 err)"
PORTKERN_CPU_CLASS=cuda-sm90 "$portkern" select gemm --shapes square > /dev/null 2> err
[[ $(tail -n 1 err) == "error: "*"cuda-sm90"* ]] || fail "PORTKERN_CPU_CLASS=cuda-sm90: $(tail -n 1 err)"
rm -f err

if ((failures)); then echo "$failures failures"; exit 1; fi
echo "OK: info lists the classes, select reports the class chosen at run time and the forced ones"
