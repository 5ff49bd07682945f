#!/usr/bin/env bash
# `portkern run MODEL --image FILE...`: the batch is the images given, each named on a line of its top-5
# classes with their ImageNet names (the shipped data/net/imagenet_classes.txt, or --labels) and softmax
# probabilities; --save-input writes the preprocessed batch. (Whether the preprocessing is torchvision's is
# portkern_image_tests' part; bad files are cli_bad_input's.) SKIPPED in a build that reads no images.
# Usage: run_image.sh PATH/TO/portkern
set -uo pipefail
portkern=$1
data=$(cd "$(dirname "$0")/../data" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

images=("$data/rgb.png" "$data/rgb.jpg" "$data/palette.png" "$data/cmyk.jpg")
"$portkern" run resnet50 --threads 2 --repeats 1 --image "${images[@]}" --save-input "$dir/in.safetensors" \
  --json "$dir/run.json" > "$dir/out" 2> "$dir/err"
status=$?
if grep -q "reads no image files" "$dir/err"; then echo "SKIPPED: this build reads no image files"; exit 0; fi
[[ $status == 0 ]] || { fail "run --image exited $status:"; sed 's/^/    /' "$dir/err"; }
grep -q "^resnet50 on cpu, batch 4, " "$dir/out" || fail "the batch is not the 4 images: $(head -1 "$dir/out")"
for image in "${images[@]}"; do
  # image FILE: five "INDEX NAME PROBABILITY", most probable first; the names from the ImageNet list
  line=$(grep -F "image $image: " "$dir/out")
  [[ $line =~ ^image\ .+:\ ([0-9]+\ [^,]+\ [01]\.[0-9]{3},\ ){4}[0-9]+\ [^,]+\ [01]\.[0-9]{3}$ ]] ||
    fail "no top-5 line with names for $image: '$line'"
  first=$(sed -E 's/^image [^:]+: ([0-9]+) ([^,]+) [01]\.[0-9]{3}, .*/\1|\2/' <<< "$line")
  index=${first%%|*} name=${first#*|}
  listed=$(grep -v '^#' "$(dirname "$0")/../../data/net/imagenet_classes.txt" | sed -n "$((index + 1))p")
  [[ $name == "$listed" ]] || fail "$image: class $index printed as '$name', the list says '$listed'"
done
grep -q "random weights: the classes below mean nothing" "$dir/err" || fail "no note that the weights are random"
# the saved batch: 4 x 224 x 224 x 3 float32 after the header
size=$(stat -c %s "$dir/in.safetensors")
header=$(od -An -t u8 -N 8 "$dir/in.safetensors" | tr -d ' ')
(( size == 8 + header + 4 * 224 * 224 * 3 * 4 )) || fail "--save-input wrote $size bytes (header $header)"
grep -q '"predictions"' "$dir/run.json" || fail "no predictions in the JSON"

# --labels: another list of 1000 names; without a list (none found) the indices alone
for i in $(seq 0 999); do echo "thing$i"; done > "$dir/names.txt"
"$portkern" run resnet50 --threads 2 --repeats 1 --image "$data/grey.png" --labels "$dir/names.txt" > "$dir/out" 2> "$dir/err" ||
  fail "run --labels exited $?"
grep -qE "^image .*grey.png: [0-9]+ thing[0-9]+ [01]\.[0-9]{3}, " "$dir/out" || fail "--labels names not printed: $(tail -1 "$dir/out")"

if (( failures )); then echo "FAIL: $failures checks"; exit 1; fi
echo "OK: run --image prints each image's top-5 classes by name; the batch is the images"
