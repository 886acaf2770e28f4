#!/usr/bin/env bash
# Makes the Lottie reference renderers' virtual environment with the pinned
# requirements (rlottie-python and thorvg-python, for reference.py;
# contrib/setup-venv.sh does it).
#
#   contrib/lottie/setup-venv.sh            # venv at .build/lottie-venv (ignored by git)
#   LOTTIE_VENV=/path/venv contrib/lottie/setup-venv.sh
#   PYTHON=python3.11 contrib/lottie/setup-venv.sh
#
# Idempotent: a venv whose two peers already are the pinned versions, and
# whose modules import (loading the native libraries in their wheels), is
# left as it is. Prints the venv's python on stdout (the last line);
# progress on stderr. Exit 0 ready, 1 failed (one line on stderr says why).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PYTHON_WANTED="Python 3.7 or newer" exec "$here/../setup-venv.sh" \
  "${LOTTIE_VENV:-$(cd "$here/../.." && pwd)/.build/lottie-venv}" "$here/requirements.txt" rlottie_python thorvg_python
