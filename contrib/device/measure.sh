#!/bin/bash
# Run on the device machine from the project's root (bundle.sh made .gpu/):
# `OUT=$OUT bash .gpu/measure.sh SECONDS`. The Lottie bench one file at a
# time (each file's strategies and peers interleaved in its own run, at most
# 30 s a file, SECONDS in all), every shared file's middle frame drawn on GL
# for comparison with llvmpipe, the files whose polygon rows ran slow there
# under both driver policies, and the sine and dots sweeps; all in $OUT.
cd "$(dirname "$0")/.."
budget=${1:-300}
exec > >(tee "$OUT/log.txt") 2>&1
vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
if [ -f $vendor ]; then
    for f in .gpu/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
    export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
fi
export LD_LIBRARY_PATH=$PWD/.gpu/libs
gzip -dc .gpu/waves.gz > /tmp/waves && chmod +x /tmp/waves
W=/tmp/waves
nvidia-smi -L 2>/dev/null; nproc; grep -m1 "model name" /proc/cpuinfo
mkdir -p /tmp/lottie /tmp/renders
echo "== the Lottie bench, file by file"
start=$SECONDS
for f in .gpu/lottie/*.json; do
    (( SECONDS - start > budget )) && { echo "stopped at $budget s"; break; }
    name=$(basename "$f" .json)
    timeout 30 $W bench lottie --headless --file "$f" --size 256x256 --peers .gpu/peers --json "/tmp/lottie/$name.json" \
        > "/tmp/lottie/$name.txt" 2>&1 || echo "$name: exit $?"
done
tar czf "$OUT/lottie.tgz" -C /tmp lottie
echo "== files whose polygon rows ran slow on an H200 (docs/benchmark.md), under each driver policy"
for f in loader_4 emoji_wink happy; do
    for policy in gpu software; do
        WAVES_GL_POLICY=$policy timeout 30 $W bench lottie --headless --backend gl --file ".gpu/lottie/$f.json" --size 256x256 \
            --peers /nonexistent 2>&1 | grep "^$f" | sed "s/^/$policy: /"
    done
done
echo "== each file's middle frame on GL"
for f in .gpu/lottie/*.json; do
    frames=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(int(round(j['op']-j['ip'])))" "$f")
    timeout 10 $W render lottie --file "$f" --size 200x200 --background "#FFFFFF" --frame $((frames / 2)) --backend gl \
        --out "/tmp/renders/$(basename "$f" .json).png" > /dev/null 2>&1 || echo "$(basename "$f"): render exit $?"
done
tar czf "$OUT/renders.tgz" -C /tmp renders
echo "== sweeps"
timeout 60 $W bench --headless --frames 120 --cells 1,10,100,1000 --json "$OUT/sine.json" | tail -3
timeout 60 $W bench dots --headless --dots 10,100,1000,10000 --frames 60 --json "$OUT/dots.json" | tail -3
