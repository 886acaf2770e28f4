#!/bin/bash
# Packs what `waves` needs on a bare NVIDIA machine (no Swift, no package
# registry) into .gpu/ (git-ignored): a static release build, the shared
# libraries it links beside glibc, glvnd's GL libraries (Debian's packages,
# unpacked there into /), the Lottie peers' libraries and the shared Lottie
# files. ../shared/GPU.md has the recipe this follows; measure.sh runs there.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .gpu/gl .gpu/libs .gpu/lottie /tmp/amd64/partial
swift build -c release --static-swift-stdlib --product waves --scratch-path .build-static
strip -o /tmp/waves-static .build-static/release/waves && gzip -9c /tmp/waves-static > .gpu/waves.gz
# Every shared library but glibc's, the C++ runtime and GL's (glvnd's come as packages, for NVIDIA's to plug into).
for lib in $(ldd .build-static/release/waves | awk '$3 ~ /^\// {print $3}'); do
    case $(basename "$lib") in
        libc.so*|libm.so*|libpthread*|libdl.so*|libstdc++*|libgcc_s*|libGL.so*|libEGL*|libGLX*|libGLdispatch*|libOpenGL*) ;;
        *) cp -L "$lib" .gpu/libs/ ;;
    esac
done
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
apt-get $o update >/dev/null
(cd .gpu/gl && apt-get $o download libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
# The peers as `--peers .gpu/peers` finds them: lib/python*/site-packages/<wheel>/<library>.
for wheel in rlottie_python/librlottie.so thorvg_python/libthorvg-1.so; do
    mkdir -p ".gpu/peers/lib/python3/site-packages/$(dirname $wheel)"
    cp -L .build/lottie-venv/lib/python3*/site-packages/$wheel ".gpu/peers/lib/python3/site-packages/$wheel"
done
cp ../shared/lottie/*.json .gpu/lottie/
cp contrib/device/measure.sh .gpu/
du -sh .gpu
