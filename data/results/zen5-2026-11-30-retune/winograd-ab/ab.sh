cd /work/main
for round in 1 2; do for v in base new; do
  bin=./build/portkern; [ $v = base ] && bin=/tmp/portkern-base
  for n in "vgg16 1" "resnet50 1" "unseen_nets 1" "vgg16 4"; do set -- $n
    $bin bench conv2d --device cpu --net $1 --batch $2 --threads 2 --algo winograd --json /tmp/ab2/$v-$1-b$2-r$round.json > /dev/null 2>&1
  done; echo "$round $v $(date +%T)"
done; done
