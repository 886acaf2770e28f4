#!/usr/bin/env bash
# Makes the Ray adapter's virtual environment with the pinned requirements
# (contrib/setup-venv.sh does it).
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
PYTHON_WANTED="a Python 3.9-3.12 interpreter" exec "$here/../setup-venv.sh" \
  "${RAY_VENV:-$(cd "$here/../.." && pwd)/.build/ray-venv}" "$here/requirements.txt" ray
