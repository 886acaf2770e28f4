#!/bin/sh
# waves audiowaveform against audiowaveform 1.10.3, whole processes, paired
# (farm-bench --vs, medians), one kind of case a row: peaks from WAV, FLAC,
# MP3, Ogg and Opus; a PNG from audio (-z auto) and from peaks; and Waves'
# WAV peaks against the decode floor (every frame read through libsndfile,
# Scripts/sndfile-read-floor.c). The track: 10 minutes of stereo 44.1 kHz
# (two tones and noise) made by ffmpeg. Release build; docs/benchmark.md
# quotes the result.
#   AUDIOWAVEFORM=/path/to/audiowaveform Scripts/audiowaveform-bench.sh [RUNS]
set -eu
RUNS=${1:-7}
PEER=${AUDIOWAVEFORM:?name audiowaveform 1.10.3 built from its sources: AUDIOWAVEFORM=/path/to/audiowaveform}
WAVES=$(pwd)/.build/release/waves
WORK=${WORK:-/tmp/waves-audiowaveform-bench}
[ -x "$WAVES" ] || { echo "build it first: swift build -c release --product waves" >&2; exit 2; }
mkdir -p "$WORK"
cc -O2 Scripts/sndfile-read-floor.c -lsndfile -o "$WORK/sndfile-read-floor"
cd "$WORK"
if [ ! -f ten.wav ]; then
  ffmpeg -v error -y -f lavfi -i "sine=frequency=220:duration=600" -f lavfi -i "sine=frequency=330:duration=600" \
    -f lavfi -i "anoisesrc=duration=600:amplitude=0.1:seed=7" \
    -filter_complex "[0][2]amix=inputs=2[l];[1][2]amix=inputs=2[r];[l][r]join=inputs=2:channel_layout=stereo" -ar 44100 ten.wav
  ffmpeg -v error -y -i ten.wav ten.flac
  ffmpeg -v error -y -i ten.wav -b:a 192k ten.mp3
  ffmpeg -v error -y -i ten.wav -c:a libvorbis ten.ogg
  ffmpeg -v error -y -i ten.wav -c:a libopus -b:a 96k ten.opus
  "$PEER" -q -i ten.wav -o ten.dat -z 256 -b 8
fi
row() { # NAME, then the Waves command as one string; the peer's after --
  name=$1; shift; mine=$1; shift
  echo "== $name"
  farm-bench -n "$RUNS" --timeout 1200 --vs "$*" -- $mine 2>&1 | grep -E '^(A|B|A/B|ratio)[^=]*(cpu s|wall s|peak MiB)|A/B' || true
}
for f in wav flac mp3 ogg opus; do
  row "peaks from $f" "$WAVES audiowaveform -q -i ten.$f -o w.dat -z 256 -b 8" "$PEER" -q -i ten.$f -o a.dat -z 256 -b 8
done
row "PNG from audio (wav, -z auto)" "$WAVES audiowaveform -q -i ten.wav -o w.png -z auto -w 1800 -h 140" "$PEER" -q -i ten.wav -o a.png -z auto -w 1800 -h 140
row "PNG from audio (mp3, -z auto)" "$WAVES audiowaveform -q -i ten.mp3 -o w.png -z auto -w 1800 -h 140" "$PEER" -q -i ten.mp3 -o a.png -z auto -w 1800 -h 140
row "PNG from peaks (dat, -z 2048)" "$WAVES audiowaveform -q -i ten.dat -o w.png -z 2048 -w 1800 -h 140" "$PEER" -q -i ten.dat -o a.png -z 2048 -w 1800 -h 140
row "waves peaks from wav against the decode floor" "$WAVES peaks --audio ten.wav --dat w.dat" ./sndfile-read-floor ten.wav
