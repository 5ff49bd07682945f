#!/usr/bin/env bash
# What a new user may type or feed to `portkern`: every case must end with exactly one `error:` line on
# stderr (its last line, naming the problem) and exit 2 (the command line is wrong) or 1 (a file, the memory
# or the file system is) — never an abort, a signal, or a run that ignores the mistake.
# Usage: bad_input.sh PATH/TO/portkern
set -uo pipefail
portkern=$1
data=$(cd "$(dirname "$0")/../data" && pwd)   # the image files of tests/data/
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
failures=0
cases=0

# expect STATUS TEXT COMMAND...: the command exits with STATUS and its last stderr line is "error: ...TEXT...".
expect() {
  local status=$1 text=$2; shift 2
  cases=$((cases + 1))
  timeout 120 "$@" > out 2> err
  local got=$?
  local last=$(tail -n 1 err)
  if [[ $got != "$status" ]] || [[ $last != error:* ]] || [[ $last != *"$text"* ]] ||
     [[ $(grep -c '^error:' err) != 1 ]] || grep -q 'terminate called' err; then
    echo "FAIL: $* -> exit $got (expected $status), stderr:"; sed 's/^/    /' err | tail -5
    echo "    expected an error line containing: $text"
    failures=$((failures + 1))
  fi
}

header=layer,window,stride,in_h,in_w,in_c,out_h,out_w,out_k
conv() { printf '%s\n' "$header" "$@" > "$dir/conv.csv"; }
gemm() { printf '%s\n' "m,k,n,batch" "$@" > "$dir/gemm.csv"; }
bench_conv=("$portkern" bench conv2d --net "$dir/conv.csv")
bench_gemm=("$portkern" bench gemm --shapes "$dir/gemm.csv")

# ---- conv shapes CSV
conv "l1,3,1,9,9";                expect 1 "conv.csv:2: the row has 5 cells, no value for column 'in_c' (6)" "${bench_conv[@]}"
conv "l1,3,x,9,9,5,9,9,7";        expect 1 "conv.csv:2: column 'stride' (3): 'x' is not an integer in [1, 2147483647]" "${bench_conv[@]}"
conv "l1,3,0,9,9,5,9,9,7";        expect 1 "column 'stride' (3): '0' must be an integer in [1, 2147483647]" "${bench_conv[@]}"
conv "l1,3,1,9,9,5,9,9,12x";      expect 1 "column 'out_k' (9): '12x' is not an integer" "${bench_conv[@]}"
conv "l1,3,1,-9,9,5,9,9,7";       expect 1 "column 'in_h' (4): '-9' must be an integer in [1, 2147483647]" "${bench_conv[@]}"
conv "l1,3,1,99999999999999999999,9,5,9,9,7"; expect 1 "'99999999999999999999' does not fit 64 bits" "${bench_conv[@]}"
conv "l1,3,1,4294967296,9,5,9,9,7"; expect 1 "column 'in_h' (4): '4294967296' must be an integer in [1, 2147483647]" "${bench_conv[@]}"
conv "l1,3,1,9,9,5,9,9,7,5";      expect 1 "conv.csv:2: the row has 10 cells, the header names 9 columns" "${bench_conv[@]}"
conv "l1,3,1,9,9,5,9,8,7";        expect 1 "conv.csv:2: layer 'l1': portkern::conv2d: argument desc.out_w = 8 must be" "${bench_conv[@]}"
conv "l1,4,1,1,1,5,1,1,7";        expect 1 "layer 'l1': portkern::conv2d: argument desc.window_h = 4 must be such that" "${bench_conv[@]}"
conv "l1,1,1,2147483647,2147483647,2147483647,2147483647,2147483647,1"; expect 1 "layer 'l1': portkern::conv2d: the input's elements (batch * in_h * in_w * in_c) = " "${bench_conv[@]}"
conv "l1,1,1,30000,30000,64,30000,30000,64"; expect 1 "need" "${bench_conv[@]}" --batch 100
conv;                             expect 1 "conv.csv: no layers in the file (only a header)" "${bench_conv[@]}"
printf '\n# comment\n\n' > conv.csv; expect 1 "conv.csv: no header line (the file is empty)" "${bench_conv[@]}"
: > conv.csv;                     expect 1 "conv.csv: no header line (the file is empty)" "${bench_conv[@]}"
printf 'layer,window,stride\nl1,3,1\n' > conv.csv; expect 1 "the header names no column 'in_h'" "${bench_conv[@]}"
printf 'layer,window,window\n' > conv.csv; expect 1 "the header names the column 'window' twice" "${bench_conv[@]}"
expect 1 "missing.csv: cannot read the shapes file" "$portkern" bench conv2d --net "$dir/missing.csv"
expect 1 "'nosuch' is neither a network (" "$portkern" bench conv2d --net nosuch
expect 1 "conv.csv" "$portkern" select conv2d --nets "$dir/conv.csv"
expect 1 "conv.csv" "$portkern" tune conv2d --nets "$dir/conv.csv" --out "$dir/t.csv"
# CRLF line ends and blank lines are fine: the error is the one in the row
printf '%s\r\n\r\nl1,3,1,9,9,5,9,9,0\r\n' "$header" > conv.csv; expect 1 "conv.csv:3: column 'out_k' (9): '0' must be" "${bench_conv[@]}"

# ---- GEMM shapes CSV
gemm "12x,1,1,1";                 expect 1 "gemm.csv:2: column 'm' (1): '12x' is not an integer >= 1" "${bench_gemm[@]}"
gemm "1,1,1";                     expect 1 "gemm.csv:2: the row has 3 cells, no value for column 'batch' (4)" "${bench_gemm[@]}"
gemm "1,,1,1";                    expect 1 "gemm.csv:2: column 'k' (2): empty cell" "${bench_gemm[@]}"
gemm "-4,1,1,1";                  expect 1 "column 'm' (1): '-4' must be an integer >= 1" "${bench_gemm[@]}"
gemm "1.5,1,1,1";                 expect 1 "column 'm' (1): '1.5' is not an integer" "${bench_gemm[@]}"
gemm "18446744073709551616,1,1,1"; expect 1 "does not fit 64 bits" "${bench_gemm[@]}"
gemm "4294967296,4294967296,1,1"; expect 1 "the operands are too large: m*k*batch*8 bytes = 4294967296 * 4294967296 does not fit in 64 bits" "${bench_gemm[@]}"
gemm "200000,200000,200000,1";    expect 1 "need" "${bench_gemm[@]}"
gemm;                             expect 1 "gemm.csv: no shapes in the file (only a header)" "${bench_gemm[@]}"
printf 'm,k,n,batch,trans_a\n2,2,2,1,2\n' > gemm.csv; expect 1 "column 'trans_a' (5): '2' must be an integer in [0, 1]" "${bench_gemm[@]}"
printf 'm,k,n\n2,2,2\n' > gemm.csv; expect 1 "the header names no column 'batch' (it needs m,k,n,batch)" "${bench_gemm[@]}"
expect 1 "missing.csv: cannot read the shapes file" "$portkern" bench gemm --shapes "$dir/missing.csv"
mkdir -p folder.csv
expect 1 "folder.csv: a folder, not a shapes file" "$portkern" bench gemm --shapes "$dir/folder.csv"
expect 1 "folder.csv: a folder, not a shapes file" "$portkern" bench conv2d --net "$dir/folder.csv"
expect 1 "unknown operator 'nosuch'; known: accuracy" "$portkern" bench ops --op nosuch --size small
expect 1 "--shapes 'nosuch' is neither a set" "$portkern" select gemm --shapes nosuch
expect 1 "--shapes 'nosuch' is neither a set" "$portkern" tune gemm --family cpu_packed --shapes nosuch --out "$dir/t.csv"
gemm "12x,1,1,1";                 expect 1 "gemm.csv:2:" "$portkern" tune gemm --family cpu_packed --shapes "$dir/gemm.csv" --out "$dir/t.csv"

# ---- names
expect 2 "--family: 'nosuch' is not a GEMM family on cpu (one of tiled, cpu_packed)" "$portkern" bench gemm --family nosuch
expect 2 "--family: 'nosuch' is not a GEMM family on cpu (one of tiled, cpu_packed, all)" "$portkern" tune gemm --family nosuch
expect 2 "--family: 'nosuch' is not a GEMM family" "$portkern" select gemm --family nosuch
expect 2 "--algo: 'nosuch' is neither an algorithm nor a configuration the benchmark measures (one of direct, tiled" \
  "$portkern" bench conv2d --algo nosuch
expect 2 "'tiled/nosuch' is neither" "$portkern" bench conv2d --algo direct tiled/nosuch
expect 1 "argument --set = nosuch must be one of square" "$portkern" bench gemm --set nosuch
expect 2 "--device: 'gpu7': portkern::Device::parse" "$portkern" bench gemm --device gpu7
expect 2 "--device: 'cuda:x'" "$portkern" select conv2d --device cuda:x
if ! "$portkern" info --no-measure 2> /dev/null | grep -q cuda:; then
  expect 2 "--device: 'cuda:7': portkern::Device::cuda: argument index = 7 must be a GPU, but none is present" \
    "$portkern" bench gemm --device cuda:7
fi
expect 2 "A subcommand is required" "$portkern"
expect 2 "A subcommand is required" "$portkern" nosuch
expect 2 "The following argument was not expected: extra" "$portkern" bench gemm extra

# ---- numbers on the command line
for threads in -1 12x 1025 99999999999; do
  expect 2 "--threads: Value $threads not in range 0 to 1024" "$portkern" bench gemm --threads "$threads"
done
for ms in -5 0 nan inf 12x; do
  expect 2 "--time-ms: '$ms' must be a finite number > 0" "$portkern" tune conv2d --time-ms "$ms"
done
expect 2 "--pause-ms: Value -1 not in range 0 to 60000" "$portkern" tune gemm --pause-ms -1
expect 2 "--max-mflop: '-1' must be a finite number > 0" "$portkern" tune gemm --max-mflop -1
for batch in 0 -2 3x 99999999999999999999; do
  expect 2 "--batch: '$batch' must be an integer in [1, 2^63 - 1]" "$portkern" bench conv2d --batch "$batch"
  expect 2 "--batches: '$batch' must be an integer in [1, 2^63 - 1]" "$portkern" tune conv2d --batches 1 "$batch"
done

# ---- run --image: image files (tests/data/) that cannot be read, and the batch they make
run_image=("$portkern" run resnet50 --threads 1 --repeats 1 --image)
head -c 2000 "$data/rgb.png" > cut.png
head -c 700 "$data/rgb.jpg" > cut.jpg
printf 'not an image\n' > text.png
: > empty.jpg
if "$portkern" run resnet50 --image "$dir/text.png" 2>&1 | grep -q "reads no image files"; then
  echo "note: this build reads no image files (no libpng, libjpeg): the --image decoding cases are left out"
else
  expect 1 "--image $dir/missing.png: cannot open the image: No such file or directory" "${run_image[@]}" "$dir/missing.png"
  expect 1 "--image $dir/cut.png: cannot decode the PNG image (truncated or corrupt?): libpng:" "${run_image[@]}" "$dir/cut.png"
  expect 1 "--image $dir/cut.jpg: cannot decode the JPEG image (truncated or corrupt?): libjpeg: Premature end of JPEG file" \
    "${run_image[@]}" "$data/rgb.png" "$dir/cut.jpg"
  expect 1 "--image $dir/text.png: neither a PNG nor a JPEG image" "${run_image[@]}" "$dir/text.png"
  expect 1 "--image $dir/empty.jpg: an empty file, not an image" "${run_image[@]}" "$dir/empty.jpg"
  expect 1 "--image $dir: a folder, not an image file" "${run_image[@]}" "$dir"
  expect 1 "huge.png: the image is 20000 x 20000 pixels, more than the 178956970 decoded at most" "${run_image[@]}" "$data/huge.png"
  expect 1 "huge.jpg: the image is 60000 x 60000 pixels, more than the 178956970 decoded at most" "${run_image[@]}" "$data/huge.jpg"
  expect 1 "grey16.png: a 16-bit greyscale PNG" "${run_image[@]}" "$data/grey16.png"
fi
expect 2 "--batch: 2 differs from the 3 --image files" "${run_image[@]}" "$data/rgb.png" "$data/rgb.jpg" "$data/grey.png" --batch 2
expect 2 "--resize: 200 is smaller than the 224-pixel crop resnet50 takes" "${run_image[@]}" "$data/rgb.png" --resize 200
expect 2 "--resize requires --image" "$portkern" run resnet50 --resize 256
expect 2 "--image excludes --input" "${run_image[@]}" "$data/rgb.png" --input "$data/rgb.png"
printf 'one\ntwo\n' > names.txt
expect 1 "--labels $dir/names.txt: 2 class names, but resnet50 has 1000 classes" "${run_image[@]}" "$data/rgb.png" --labels "$dir/names.txt"
expect 1 "--labels $dir/nosuch.txt: cannot read the class names" "${run_image[@]}" "$data/rgb.png" --labels "$dir/nosuch.txt"

# ---- output files: rejected before anything runs
touch plain
expect 2 "--json: '$dir/plain' is not a folder" "$portkern" bench gemm --json "$dir/plain/out.json"
expect 2 "--json: '$dir/plain' is not a folder" "$portkern" bench conv2d --json "$dir/plain/sub/out.json"
expect 2 "--json: '$dir' is a folder" "$portkern" select gemm --json "$dir"
expect 2 "--out: '$dir/plain' is not a folder" "$portkern" tune conv2d --out "$dir/plain/t.csv"
expect 2 "--json: an empty path" "$portkern" report --json ""
printf 'not,a,dataset\n' > other.csv
expect 1 "other.csv has the header 'not,a,dataset', expected 'device,op,family,config" \
  "$portkern" tune gemm --family cpu_packed --shapes square --out "$dir/other.csv"
[[ $(cat other.csv) == "not,a,dataset" ]] || { echo "FAIL: a file with another header was changed"; failures=$((failures + 1)); }
mkdir -p ro
if unshare -m true 2> /dev/null; then   # a read-only file system, where the machine lets us mount one
  unshare -m bash -c "mount -t tmpfs -o ro tmpfs '$dir/ro' && '$portkern' bench gemm --json '$dir/ro/out.json'" > out 2> err
  status=$?
  cases=$((cases + 1))
  if [[ $status != 2 ]] || ! tail -n 1 err | grep -q "^error: --json: cannot write '$dir/ro/out.json': Read-only file system"; then
    echo "FAIL: --json on a read-only file system -> exit $status:"; sed 's/^/    /' err | tail -3
    failures=$((failures + 1))
  fi
else
  echo "note: cannot mount a read-only file system here (unshare -m): that case is left out"
fi
[[ ! -e out.json && ! -e plain.json ]] || { echo "FAIL: a check left a file behind"; failures=$((failures + 1)); }

if (( failures )); then echo "FAIL: $failures of $cases cases"; exit 1; fi
echo "OK: $cases cases of bad input, each one error line and the right exit status"
