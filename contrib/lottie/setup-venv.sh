#!/usr/bin/env bash
# Makes the Lottie reference renderers' virtual environment with the pinned
# requirements (rlottie-python and thorvg-python, for reference.py).
#
#   contrib/lottie/setup-venv.sh            # venv at .build/lottie-venv (ignored by git)
#   LOTTIE_VENV=/path/venv contrib/lottie/setup-venv.sh
#   PYTHON=python3.11 contrib/lottie/setup-venv.sh
#
# Idempotent: a venv whose two peers already are the pinned versions is left
# as it is.
# Prints the venv's python on stdout (the last line); progress on stderr.
# Exit 0 ready, 1 failed (one line on stderr says why).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${LOTTIE_VENV:-$root/.build/lottie-venv}
python=${PYTHON:-python3}
requirements=$here/requirements.txt
want_rlottie=$(sed -n 's/^rlottie-python==\([0-9.]*\).*/\1/p' "$requirements")
want_thorvg=$(sed -n 's/^thorvg-python==\([0-9.]*\).*/\1/p' "$requirements")
want="$want_rlottie $want_thorvg"

fail() { echo "setup-venv: $*" >&2; exit 1; }

# Both distributions' installed versions, "RLOTTIE THORVG" (importlib.metadata:
# neither module has a __version__ of its own); importing the two modules too
# loads their native libraries, so a venv whose wheels do not load is not ready.
versions() {
  "$1" -c 'import importlib.metadata as m, rlottie_python, thorvg_python
print(m.version("rlottie-python"), m.version("thorvg-python"))' 2>/dev/null
}

command -v "$python" >/dev/null || fail "no $python (set PYTHON to Python 3.7 or newer)"

if [ -x "$venv/bin/python" ] && have=$(versions "$venv/bin/python") && [ "$have" = "$want" ]; then
  echo "setup-venv: $venv already has rlottie-python and thorvg-python $have" >&2
  echo "$venv/bin/python"
  exit 0
fi

start=$EPOCHREALTIME
mkdir -p "$(dirname "$venv")"
"$python" -m venv "$venv" || fail "python -m venv $venv failed (Debian's system python needs python3-venv)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2 \
  || fail "pip install -r $requirements failed (is PyPI reachable?)"
have=$(versions "$venv/bin/python") || fail "rlottie_python or thorvg_python does not import in $venv"
[ "$have" = "$want" ] || fail "$venv has rlottie-python and thorvg-python $have, not $want"
awk -v a="$start" -v b="$EPOCHREALTIME" -v h="$have" -v v="$venv" 'BEGIN { printf "setup-venv: rlottie-python and thorvg-python %s in %s (%.1f s)\n", h, v, b - a }' >&2
echo "$venv/bin/python"
