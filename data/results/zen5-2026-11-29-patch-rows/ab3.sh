#!/bin/bash
# usage: ab3.sh tag net threads reps binaries... -- args
tag=$1; net=$2; th=$3; reps=$4; shift 4
bins=(); while [ "$1" != "--" ]; do bins+=("$1"); shift; done; shift
for i in $(seq 1 $reps); do
  for b in "${bins[@]}"; do
    /tmp/portkern_$b bench conv2d --device cpu --net $net --batch 1 --threads $th "$@" 2>&1 | grep -v "^\[" > /tmp/ab/${tag}_${b}_$i.txt
  done
done
