#!/bin/bash
# usage: ab.sh tag net threads reps algo-args...
tag=$1; net=$2; th=$3; reps=$4; shift 4
for i in $(seq 1 $reps); do
  for b in base new; do
    /tmp/portkern_$b bench conv2d --device cpu --net $net --batch 1 --threads $th "$@" 2>&1 | grep -v "^\[" > /tmp/ab/${tag}_${b}_$i.txt
  done
done
