#!/usr/bin/env bash
# Makes the Ray adapter's virtual environment with the pinned requirements.
#
#   contrib/ray/setup-venv.sh            # venv at .build/ray-venv (ignored by git)
#   RAY_VENV=/path/venv contrib/ray/setup-venv.sh
#   PYTHON=python3.11 contrib/ray/setup-venv.sh
#
# Idempotent: a venv whose ray already is the pinned version is left as it is.
# Prints the venv's python on stdout (the last line); progress on stderr.
# Exit 0 ready, 1 failed (one line on stderr says why).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${RAY_VENV:-$root/.build/ray-venv}
python=${PYTHON:-python3}
requirements=$here/requirements.txt
want=$(sed -n 's/^ray==\([0-9.]*\).*/\1/p' "$requirements")

fail() { echo "setup-venv: $*" >&2; exit 1; }

command -v "$python" >/dev/null || fail "no $python (set PYTHON to a Python 3.9-3.12 interpreter)"

if [ -x "$venv/bin/python" ] && have=$("$venv/bin/python" -c 'import ray; print(ray.__version__)' 2>/dev/null) && [ "$have" = "$want" ]; then
  echo "setup-venv: $venv already has ray $have" >&2
  echo "$venv/bin/python"
  exit 0
fi

start=$EPOCHREALTIME
mkdir -p "$(dirname "$venv")"
"$python" -m venv "$venv" || fail "python -m venv $venv failed (Debian's system python needs python3-venv)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2 \
  || fail "pip install -r $requirements failed (is PyPI reachable?)"
have=$("$venv/bin/python" -c 'import ray; print(ray.__version__)') || fail "ray does not import in $venv"
[ "$have" = "$want" ] || fail "$venv has ray $have, not $want"
awk -v a="$start" -v b="$EPOCHREALTIME" -v h="$have" -v v="$venv" 'BEGIN { printf "setup-venv: ray %s in %s (%.1f s)\n", h, v, b - a }' >&2
echo "$venv/bin/python"
