#!/usr/bin/env python3
"""Reference frames of a Lottie file from two independent peers, rlottie and
ThorVG, for checking Waves's Lottie importer against.

    reference.py --peer rlottie|thorvg --size WxH --frames N[,N...] --out DIR FILE.json
    reference.py --info FILE.json

Each frame is drawn at exactly WxH, the composition scaled to fit and centred,
composited over opaque white, and written as an 8-bit RGB PNG
DIR/<stem>.<N>.<peer>.png. --info prints {"w","h","fps","ip","op","frames"} as
read from the file itself (no peer): frames is the number of whole frames
ip + N before op, op - ip rounded where it is within 0.001 of a whole number
(After Effects writes op as 24.00000097754), so N runs 0 ..< frames.

Run it with the venv that contrib/lottie/setup-venv.sh makes:

    py=$(contrib/lottie/setup-venv.sh) && "$py" contrib/lottie/reference.py ...

Exit status: 0 every frame written; 1 the peer could not load or render the
file; 2 a usage error (a bad option or frame number, an unreadable file);
3 the peer crashed (a signal) or ran past --timeout. Every failure is one line
on stderr naming the file. The peer always draws in a child process, so a
crash of its native library (ThorVG 1.0.4 dies with SIGSEGV on dna.json) costs
only that file; frames written before the crash stay (each PNG is written
atomically).

Frame numbers. N here is the Lottie frame ip + N: 0 is the file's first frame,
and N must be a whole number, 0 <= N < frames (the Lottie range [ip, op), op
exclusive). Both peers count N from ip; they differ only past that range, which
this script refuses, and at a layer's out point:

- rlottie (Samsung/rlottie, the same code in laggykiller/rlottie that
  rlottie-python 1.3.8 bundles): the composition's ip and op are rounded to
  whole frames when parsed (std::lround, src/lottie/lottieparser.cpp, parsing
  "ip"/"op"); lottie_animation_render takes a size_t frame_num and
  AnimationImpl::update (src/lottie/lottieanimation.cpp) adds startFrame (ip)
  and clamps to [ip, op], op *inclusive*; totalFrame() is op - ip + 1
  (src/lottie/lottiemodel.h), one more than Lottie's op - ip. Everything
  downstream is int: layer ip/op are lround-ed, the layer's st is truncated to
  int, a layer's local frame is int((frame - st) / sr) (Layer::timeRemap in
  lottiemodel.h), and a layer is drawn while in <= frame <= out, out inclusive
  too (renderer::Layer::visible in src/lottie/lottieitem.cpp). A time remap maps
  through Composition::frameAtPos, which clamps to [0, 1] of the root
  composition's duration and rounds to a whole frame.
- ThorVG 1.0.4 (thorvg/thorvg at tag v1.0.4): tvg_animation_set_frame takes a
  float; LottieLoader::frame (src/loaders/lottie/tvgLottieLoader.cpp) rounds it
  to 1e-4 (shorten(), which also adds the segment's start, 0 unless a segment
  is set) and ignores a change under 0.001 (an unchanged frame answers
  InsufficientCondition, not an error); LottieBuilder::update
  (tvgLottieBuilder.cpp) calls LottieComposition::clamp (tvgLottieModel.h),
  which adds root->inFrame (ip, a float, not rounded) and clamps to
  [ip, op - 1]; totalFrame() is op - ip. Layers are drawn while
  in <= frame < out (LottieBuilder::updateLayer), and a layer's local frame is
  (frame - st) / sr as a float (LottieLayer::remap, tvgLottieModel.cpp).
So for a whole N in [0, op - ip) with whole ip and op, both draw Lottie frame
ip + N, except that at a layer's own op rlottie still draws the layer and
ThorVG (like lottie-web) does not; past the range rlottie draws frame op and
ThorVG op - 1. A file with ip 10, op 30 and a layer with op 20 confirms it:
N 0 is frame 10 in both, N 10 shows the layer in rlottie only, N 25 is frame
30 in rlottie and 29 in ThorVG.

Fit. Every frame shows the composition scaled by s = min(W / w, H / h) and
centred. rlottie does it itself (renderSync's keepAspectRatio defaults to true, and
renderer::Composition::update translates by ((W - w s) / 2, (H - h s) / 2)).
ThorVG 1.0.4 does not: a Lottie picture is drawn at its own size at the
origin, and Picture::size(w, h) scales x and y separately (LottieLoader::resize
uses w / comp.w and h / comp.h, whatever its documentation says about the
aspect ratio), so this script asks for size (w s, h s) and translates the
picture by the same offsets. The two also differ at the edge of the
composition: ThorVG clips to the composition's rectangle (LottieBuilder::build
adds a viewport clip), rlottie does not (content outside it shows in the
letterbox). This script clips rlottie's output to that rectangle too, each
pixel multiplied by the share of it that the rectangle covers, so both give
the composition scaled to fit, centred and clipped to its own rectangle (as
lottie-web's SVG renderer clips it too).

Both peers give premultiplied 8-bit colour (rlottie ARGB32 words, BGRA bytes
on a little-endian machine; ThorVG ABGR8888 words, RGBA bytes); over opaque
white a premultiplied channel c with alpha a is c + (255 - a), exactly.
"""

import argparse
import json
import math
import os
import signal
import struct
import subprocess
import sys
import zlib

PEERS = ("rlottie", "thorvg")
PROG = "reference.py"
CHILD_FLAG = "--render-in-this-process"


class Failure(Exception):
    """The peer could not load or draw the file (exit 1)."""


class UsageError(Exception):
    """A bad option, frame number or file (exit 2)."""


# ---------------------------------------------------------------- the file


def read_info(path):
    """{"w","h","fps","ip","op","frames"} from the Lottie file itself."""
    try:
        with open(path, "rb") as f:
            doc = json.load(f)
    except OSError as e:
        raise UsageError(f"cannot read it: {e.strerror or e}") from None
    except ValueError as e:
        raise UsageError(f"not JSON: {e}") from None
    if not isinstance(doc, dict):
        raise UsageError("not a Lottie file (the top level is not an object)")
    info = {}
    for key, name in (("w", "w"), ("h", "h"), ("fr", "fps"), ("ip", "ip"), ("op", "op")):
        value = doc.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise UsageError(f"not a Lottie file (no number '{key}')")
        info[name] = _number(value)
    if info["w"] <= 0 or info["h"] <= 0:
        raise UsageError(f"not a Lottie file (its size is {info['w']}x{info['h']})")
    span = info["op"] - info["ip"]
    info["frames"] = round(span) if abs(span - round(span)) < 1e-3 else max(0, math.ceil(span))
    return info


def _number(value):
    """An int where the value is whole, so JSON shows 60, not 60.0."""
    return int(value) if float(value).is_integer() else value


# ---------------------------------------------------------------- geometry


def fit(comp_w, comp_h, width, height):
    """Scale and offsets that fit the composition in WxH, centred."""
    scale = min(width / comp_w, height / comp_h)
    return scale, (width - comp_w * scale) / 2, (height - comp_h * scale) / 2


def _coverage(lo, hi, n):
    """The share of each of n pixels [i, i + 1) that [lo, hi] covers."""
    return [max(0.0, min(i + 1.0, hi) - max(float(i), lo)) for i in range(n)]


def clip_to_rect(rgba, width, height, x0, y0, x1, y1):
    """Multiplies each premultiplied pixel by the share of it inside the
    rectangle, in place; pixels wholly inside are left as they are."""
    cover_x = _coverage(x0, x1, width)
    cover_y = _coverage(y0, y1, height)
    if all(c >= 1.0 for c in cover_x) and all(c >= 1.0 for c in cover_y):
        return
    row_bytes = width * 4
    for y, cy in enumerate(cover_y):
        base = y * row_bytes
        if cy <= 0.0:
            rgba[base:base + row_bytes] = bytes(row_bytes)
            continue
        for x, cx in enumerate(cover_x):
            k = cx * cy
            if k >= 1.0:
                continue
            i = base + 4 * x
            rgba[i:i + 4] = bytes(int(v * k + 0.5) for v in rgba[i:i + 4])


# ---------------------------------------------------------------- pixels


def over_white(rgba):
    """Premultiplied RGBA bytes over opaque white: RGB bytes, c + 255 - a."""
    r, g, b, a = rgba[0::4], rgba[1::4], rgba[2::4], rgba[3::4]
    out = bytearray(len(a) * 3)
    for j, rgb in enumerate((r, g, b)):
        # min() guards a channel above its alpha, which premultiplied data
        # should never have.
        out[j::3] = bytes(min(255, c + 255 - alpha) for c, alpha in zip(rgb, a))
    return out


def to_rgba(raw, order):
    """Native 32-bit words as RGBA bytes: order is "argb" (rlottie's ARGB32) or
    "abgr" (ThorVG's ABGR8888), each word's channels from the high byte."""
    raw = bytes(raw)
    if sys.byteorder == "little":
        # A word's low byte comes first: ARGB is B,G,R,A in memory, ABGR R,G,B,A.
        if order == "abgr":
            return bytearray(raw)
        out = bytearray(len(raw))
        out[0::4], out[1::4], out[2::4], out[3::4] = raw[2::4], raw[1::4], raw[0::4], raw[3::4]
        return out
    out = bytearray(len(raw))
    if order == "abgr":
        out[0::4], out[1::4], out[2::4], out[3::4] = raw[3::4], raw[2::4], raw[1::4], raw[0::4]
    else:
        out[0::4], out[1::4], out[2::4], out[3::4] = raw[1::4], raw[2::4], raw[3::4], raw[0::4]
    return out


def write_png(path, width, height, rgb):
    """An 8-bit RGB PNG, written to a temporary name and renamed."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = width * 3
    scanlines = b"".join(b"\x00" + bytes(rgb[y * row:(y + 1) * row]) for y in range(height))
    png = (b"\x89PNG\r\n\x1a\n"
           + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(scanlines, 9))
           + chunk(b"IEND", b""))
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(png)
    os.replace(tmp, path)


# ---------------------------------------------------------------- the peers


def render_rlottie(path, width, height, frames):
    """Yields (frame, premultiplied RGBA bytes) for each frame."""
    from rlottie_python import LottieAnimation

    anim = LottieAnimation.from_file(os.path.abspath(path))
    if not anim.animation_p:
        raise Failure("rlottie could not load it")
    comp_w, comp_h = anim.lottie_animation_get_size()
    if comp_w <= 0 or comp_h <= 0:
        raise Failure(f"rlottie reads its size as {comp_w}x{comp_h}")
    # rlottie fits and centres by itself; clip to the composition as ThorVG does.
    scale, tx, ty = fit(comp_w, comp_h, width, height)
    for n in frames:
        raw = anim.lottie_animation_render(frame_num=n, width=width, height=height,
                                           bytes_per_line=width * 4)
        rgba = to_rgba(raw, "argb")
        clip_to_rect(rgba, width, height, tx, ty, tx + comp_w * scale, ty + comp_h * scale)
        yield n, rgba


def render_thorvg(path, width, height, frames):
    """Yields (frame, premultiplied RGBA bytes) for each frame."""
    import thorvg_python as tvg

    engine = tvg.Engine(threads=0)  # the main thread only: modest on CPU, and deterministic
    canvas = tvg.SwCanvas(engine)
    if canvas.set_target(width, height, width, tvg.Colorspace.ABGR8888) != tvg.Result.SUCCESS:
        raise Failure("thorvg refused a canvas of that size")
    anim = tvg.LottieAnimation(engine)
    picture = anim.get_picture()
    result = picture.load(os.path.abspath(path))
    if result != tvg.Result.SUCCESS:
        raise Failure(f"thorvg could not load it ({result.name})")
    _, comp_w, comp_h = picture.get_size()
    if comp_w <= 0 or comp_h <= 0:
        raise Failure(f"thorvg reads its size as {comp_w}x{comp_h}")
    # ThorVG scales x and y separately to the size asked for and draws at the
    # origin: ask for the fitted size, and move it to the centre.
    scale, tx, ty = fit(comp_w, comp_h, width, height)
    picture.set_size(comp_w * scale, comp_h * scale)
    picture.translate(tx, ty)
    if canvas.add(picture) != tvg.Result.SUCCESS:
        raise Failure("thorvg could not add the picture to the canvas")
    for n in frames:
        result = anim.set_frame(float(n))
        # INSUFFICIENT_CONDITION: already at that frame (frame 0 after loading).
        if result not in (tvg.Result.SUCCESS, tvg.Result.INSUFFICIENT_CONDITION):
            raise Failure(f"thorvg could not go to frame {n} ({result.name})")
        for step, call in (("update", canvas.update), ("draw", lambda: canvas.draw(True)),
                           ("sync", canvas.sync)):
            result = call()
            if result != tvg.Result.SUCCESS:
                raise Failure(f"thorvg could not {step} frame {n} ({result.name})")
        yield n, to_rgba(canvas.buffer_arr, "abgr")


RENDERERS = {"rlottie": render_rlottie, "thorvg": render_thorvg}


def output_path(out_dir, path, frame, peer):
    stem = os.path.basename(path)
    if stem.lower().endswith(".json"):
        stem = stem[:-5]
    return os.path.join(out_dir, f"{stem}.{frame}.{peer}.png")


def render_here(args):
    """The child: draws and writes every frame, or raises Failure."""
    for n, rgba in RENDERERS[args.peer](args.file, args.width, args.height, args.frame_list):
        write_png(output_path(args.out, args.file, n, args.peer), args.width, args.height,
                  over_white(rgba))


def render_in_child(args, argv):
    """Runs this script again, in a child process, to draw the frames; a
    signal or a hang there becomes one line and exit 3."""
    command = [sys.executable, os.path.abspath(__file__), CHILD_FLAG] + argv
    try:
        child = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return 3, f"{args.peer} ran past {args.timeout:g} s and was stopped"
    if child.returncode == 0:
        return 0, None
    if child.returncode < 0:
        number = -child.returncode
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return 3, f"{args.peer} crashed ({name})"
    # The child's own message is its last line; the native libraries may have
    # printed before it.
    lines = [line for line in child.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    prefix = f"{PROG}: {args.file}: "
    ours = [line for line in lines if line.startswith(prefix)]
    if ours:
        return child.returncode, ours[-1][len(prefix):]
    return 1, f"{args.peer} failed (exit {child.returncode}): {lines[-1] if lines else 'no message'}"


# ---------------------------------------------------------------- the command


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog=PROG, description="Reference frames of a Lottie file from rlottie or ThorVG, over white.")
    parser.add_argument("--peer", choices=PEERS, help="the renderer")
    parser.add_argument("--size", help="WxH, the size of every frame in pixels")
    parser.add_argument("--frames", help="N[,N...]: frame numbers, 0 being the file's ip")
    parser.add_argument("--out", help="the folder for DIR/<stem>.<N>.<peer>.png (made if missing)")
    parser.add_argument("--info", action="store_true", help="print the file's w, h, fps, ip, op, frames as JSON")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds the peer may take for all the frames (default 300)")
    parser.add_argument(CHILD_FLAG, dest="child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("file", metavar="FILE.json")
    args = parser.parse_args(argv)
    if args.info:
        return args
    missing = [f"--{name}" for name in ("peer", "size", "frames", "out") if getattr(args, name) is None]
    if missing:
        parser.error(f"{', '.join(missing)} needed (or --info)")
    try:
        w, h = args.size.lower().split("x")
        args.width, args.height = int(w), int(h)
        if args.width <= 0 or args.height <= 0 or args.width * args.height > 1 << 26:
            raise ValueError
    except ValueError:
        parser.error(f"--size {args.size}: want WxH, two positive whole numbers (at most 64 Mpixel)")
    try:
        args.frame_list = [int(n) for n in args.frames.split(",")]
    except ValueError:
        parser.error(f"--frames {args.frames}: want whole numbers separated by commas")
    if args.timeout <= 0:
        parser.error("--timeout: want a positive number of seconds")
    return args


def main(argv):
    args = parse_args(argv)

    def fail(status, message):
        print(f"{PROG}: {args.file}: {message}", file=sys.stderr)
        return status

    try:
        info = read_info(args.file)
    except UsageError as e:
        return fail(2, str(e))
    if args.info:
        print(json.dumps(info))
        return 0
    bad = [n for n in args.frame_list if not 0 <= n < info["frames"]]
    if bad:
        return fail(2, f"frame {bad[0]} is outside 0..{info['frames'] - 1} "
                       f"(ip {info['ip']}, op {info['op']})")
    if args.child:
        try:
            render_here(args)
        except Failure as e:
            return fail(1, str(e))
        except OSError as e:
            return fail(1, f"cannot write: {e}")
        return 0
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        return fail(2, f"cannot make --out {args.out}: {e.strerror or e}")
    status, message = render_in_child(args, argv)
    return fail(status, message) if status else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
