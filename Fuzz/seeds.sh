#!/usr/bin/env bash
# Writes each fuzz target's seed corpus and dictionary under $1 (make fuzz):
# small valid inputs of every form the reader accepts, and a few it refuses,
# so the fuzzer starts from the grammar rather than from nothing.
set -euo pipefail
out=$1
mkdir -p "$out"/{dat,json,path,level,mp3,lottie}

# .dat: little-endian int32 fields (version, flags, rate, samples per pixel,
# length[, channels]), then int16 or int8 values.
le32() { printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"; }
le16() { printf "$(printf '\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)))"; }
{ le32 2; le32 0; le32 44100; le32 256; le32 3; le32 1; for v in -100 120 -32768 32767 0 5; do le16 $v; done; } > "$out/dat/v2-16bit-mono"
{ le32 2; le32 1; le32 8000; le32 64; le32 2; le32 2; printf '\x80\x7f\x01\x02\xfe\x03\x00\x00'; } > "$out/dat/v2-8bit-stereo"
{ le32 1; le32 0; le32 48000; le32 512; le32 2; for v in -1 1 -300 300; do le16 $v; done; } > "$out/dat/v1-16bit"
{ le32 2; le32 0; le32 44100; le32 256; le32 0; le32 1; } > "$out/dat/v2-empty"
{ le32 2; le32 0; le32 44100; le32 256; le32 1000000000; le32 1; le16 1; le16 -1; } > "$out/dat/v2-claims-a-billion"
{ le32 2; le32 1; le32 1; le32 100000000; le32 1; le32 64; head -c 128 /dev/zero; } > "$out/dat/v2-64-channels"

# JSON, version 2 and 1, with a byte-order mark, white space, 8 bits.
j() { printf '%s' "$2" > "$out/json/$1"; }
j v2 '{"version":2,"channels":1,"sample_rate":44100,"samples_per_pixel":256,"bits":16,"length":2,"data":[-10,10,-20,20]}'
j v2-stereo-8bit '{"version":2,"channels":2,"sample_rate":8000,"samples_per_pixel":64,"bits":8,"length":1,"data":[-128,127,-1,1]}'
j v1 '{"sample_rate":48000,"samples_per_pixel":512,"bits":16,"length":1,"data":[0,0]}'
j spaced $' \n{ "version" : 2 , "channels" : 1 , "sample_rate" : 22050 , "samples_per_pixel" : 1e2 , "bits" : 8 , "data" : [ -5 , 5 ] }\n'
printf '\xef\xbb\xbf{"version":2,"channels":1,"sample_rate":44100,"samples_per_pixel":256,"bits":16,"length":1,"data":[-1.0,1]}' > "$out/json/bom"
j nested '{"version":2,"channels":1,"sample_rate":44100,"samples_per_pixel":256,"bits":16,"extra":{"a":[1,{"b":null}],"s":"x\u00e9\"y"},"data":[1,2]}'
j array '[1,2,3]'

# SVG path data: every command, absolute and relative, compact numbers, exponents, repeats.
p() { printf '%s' "$2" > "$out/path/$1"; }
p triangle 'M 0 0 L 40 0 L 20 20 Z'
p compact 'M.5.5L100.5.5L50 70Z'
p relative 'm10,10 l20,0 0,10 -20,0z m 5 5 h 4 v 4 h -4 z'
p hv 'M0 0H40V20H0Z'
p cubic 'M0 10 C 10 -5 30 25 40 10 S 60 0 47 12 Z'
p quad 'M0 10 Q 20 -10 40 10 T 48 20 t -8 4 Z'
p exponents 'M1e1 1E1 L-.5e+1 2e-1 L+3 4.5e0z'
p arc 'M0 0 A 10 10 0 0 1 20 0 Z'
p words 'M nan 0 L inf 1 Z'
p overflow 'M 1e999 0 L 0 1 Z'

# The level stream: one number from 0 to 1 a line.
printf '0.5\n0.25\n1\n0\n' > "$out/level/levels"
printf 'loud\n\r\n0.7\r\n  0.3  \n2\n-0\nnan\n1e-3' > "$out/level/mixed"
{ printf '0.5\n'; head -c 300 /dev/zero | tr '\0' '9'; printf '\n0.1\n'; } > "$out/level/long-line"

# MP3 (libmad): a third of a second of a 440 Hz sine from ffmpeg's LAME at low bit rates (each
# under -max_len, 4096 bytes): mono and stereo MPEG-1, MPEG-2 and 2.5 rates, an empty ID3v2 tag
# and a Xing/Info frame with LAME's delay (ffmpeg's default), an ID3v2 tag with a title, bare
# frames (neither), and cut short in its last frame.
m() {
  local name=$1; shift
  ffmpeg -nostdin -loglevel error -y -f lavfi -i sine=frequency=440:duration=0.3 -ar 44100 -b:a 32k -bitexact "$@" -f mp3 "$out/mp3/$name"
}
m mono -ac 1
m stereo -ac 2
m stereo-22050 -ac 2 -ar 22050 -b:a 16k
m mono-8000 -ac 1 -ar 8000 -b:a 8k
m id3v2-title -ac 1 -metadata title=x
m bare-frames -ac 1 -id3v2_version 0 -write_xing 0
head -c 1000 "$out/mp3/stereo" > "$out/mp3/stereo-truncated"

# Dictionaries: the grammars' words.
printf '%s\n' '"version"' '"channels"' '"sample_rate"' '"samples_per_pixel"' '"bits"' '"length"' '"data"' \
  '"{"' '"}"' '"["' '"]"' '":"' '","' '"-"' '"e"' '"."' '"\xef\xbb\xbf"' '"null"' '"true"' '"\\u0000"' > "$out/json.dict"
printf '%s\n' '"M"' '"m"' '"L"' '"l"' '"H"' '"h"' '"V"' '"v"' '"C"' '"c"' '"S"' '"s"' '"Q"' '"q"' '"T"' '"t"' '"Z"' '"z"' '"A"' \
  '"e-"' '"E+"' '"."' '","' '" "' '"nan"' '"inf"' '"1e308"' > "$out/path.dict"
# MP3: tags, the Xing/Info frame's words, frame headers (MPEG-1, 2 and 2.5 layer III, CRC or not).
printf '%s\n' '"ID3"' '"TAG"' '"Xing"' '"Info"' '"LAME"' '"Lavc"' '"\xff\xfb"' '"\xff\xfa"' '"\xff\xf3"' '"\xff\xe3"' \
  '"\xff\xfb\x90\x64"' '"\xff\xfb\x10\xc4"' '"ID3\x04\x00\x00\x00\x00\x00\x0a"' '"ID3\x03\x00\x10\x00\x00\x00\x00"' > "$out/mp3.dict"

# Lottie: small files of the shared set (trims, masks, mattes, repeaters, gradients, precompositions, parents), when
# ../shared is beside the checkout, and a few written here (the smallest animation; a precomposition; hostile shapes).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for f in bell abstract_circle mask loader_4 gradient_sleepy_loader done 3d ao image_embedded; do
  [ -f "$here/../../shared/lottie/$f.json" ] && cp "$here/../../shared/lottie/$f.json" "$out/lottie/$f.json"
done
l() { printf '%s' "$2" > "$out/lottie/$1"; }
l smallest '{"v":"5","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"ip":0,"op":20,"st":0,"ks":{"p":{"a":1,"k":[{"t":0,"s":[0,0],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":10,"s":[40,0]}]}},"shapes":[{"ty":"rc","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[20,20]},"r":{"a":0,"k":0}},{"ty":"st","c":{"a":0,"k":[0,0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":4},"lc":2,"lj":1,"ml":4},{"ty":"tm","s":{"a":0,"k":0},"e":{"a":0,"k":50},"o":{"a":0,"k":0},"m":1}]}]}'
l precomp '{"v":"5","fr":10,"ip":0,"op":20,"w":100,"h":100,"assets":[{"id":"a","layers":[{"ty":1,"ind":1,"sw":50,"sh":50,"sc":"#ff0000","ip":0,"op":20,"st":0,"ks":{}}]}],"layers":[{"ty":0,"ind":1,"refId":"a","w":100,"h":100,"ip":0,"op":20,"st":5,"ks":{},"masksProperties":[{"mode":"s","pt":{"a":0,"k":{"c":true,"v":[[0,0],[30,0],[30,30]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}},"o":{"a":0,"k":100}}]}]}'
l self-contained '{"v":"5","fr":10,"ip":0,"op":20,"w":100,"h":100,"assets":[{"id":"a","layers":[{"ty":0,"ind":1,"refId":"a","ip":0,"op":20,"st":0,"ks":{}}]}],"layers":[{"ty":0,"ind":1,"refId":"a","ip":0,"op":20,"st":0,"ks":{}}]}'
printf '"ty"\n"ks"\n"shapes"\n"layers"\n"assets"\n"refId"\n"parent"\n"masksProperties"\n"tt"\n"td"\n"k"\n"t"\n"s"\n"e"\n"i"\n"o"\n"gr"\n"rc"\n"el"\n"sr"\n"sh"\n"fl"\n"st"\n"gf"\n"gs"\n"tm"\n"rp"\n"1e308"\n"-1e308"\n"[[[["\n' > "$out/lottie.dict"
