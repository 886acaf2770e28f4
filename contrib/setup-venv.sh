#!/usr/bin/env bash
# Makes a virtual environment with a requirements file's pinned packages:
# what contrib/ray/setup-venv.sh and contrib/lottie/setup-venv.sh run.
#
#   contrib/setup-venv.sh VENV REQUIREMENTS MODULE...
#   PYTHON=python3.11 contrib/setup-venv.sh ...
#
# Idempotent: a venv where every package pinned (name==version) has its
# version and every MODULE imports (loading any native library it bundles)
# is left as it is. Prints the venv's python on stdout (the last line);
# progress on stderr. Exit 0 ready, 1 failed (one line on stderr says why).
set -euo pipefail

venv=$1 requirements=$2
shift 2
modules="$*"
python=${PYTHON:-python3}

fail() { echo "setup-venv: $*" >&2; exit 1; }

# "name version ..." of the pins, in the file's order, and the same of a venv's python (its modules imported first).
names=$(sed -n 's/^\([A-Za-z0-9_.-]*\)==\([0-9.]*\).*/\1/p' "$requirements" | tr '\n' ' ')
want=$(sed -n 's/^\([A-Za-z0-9_.-]*\)==\([0-9.]*\).*/\1 \2/p' "$requirements" | tr '\n' ' ')
want=${want% }
versions() {
  "$1" -c 'import importlib, importlib.metadata as m, sys
for module in sys.argv[2].split(): importlib.import_module(module)
print(" ".join(n + " " + m.version(n) for n in sys.argv[1].split()))' "$names" "$modules" 2>/dev/null
}

command -v "$python" >/dev/null || fail "no $python (set PYTHON to ${PYTHON_WANTED:-a Python 3 interpreter})"

if [ -x "$venv/bin/python" ] && have=$(versions "$venv/bin/python") && [ "$have" = "$want" ]; then
  echo "setup-venv: $venv already has $have" >&2
  echo "$venv/bin/python"
  exit 0
fi

start=$EPOCHREALTIME
mkdir -p "$(dirname "$venv")"
"$python" -m venv "$venv" || fail "python -m venv $venv failed (Debian's system python needs python3-venv)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2 \
  || fail "pip install -r $requirements failed (is PyPI reachable?)"
have=$(versions "$venv/bin/python") || fail "$modules does not import in $venv"
[ "$have" = "$want" ] || fail "$venv has $have, not $want"
awk -v a="$start" -v b="$EPOCHREALTIME" -v h="$have" -v v="$venv" 'BEGIN { printf "setup-venv: %s in %s (%.1f s)\n", h, v, b - a }' >&2
echo "$venv/bin/python"
