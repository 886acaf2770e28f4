#!/usr/bin/env bash
# contrib/ray/waves_ray.py with the Ray venv's python (.build/ray-venv, made
# by contrib/ray/setup-venv.sh or make cluster-deps), for scripts and tests
# that should not need to know where the venv is:
#
#   contrib/ray/waves-ray.sh --manifest M --results R --waves PATH [--chunks N] [...]
#
# Every argument goes to waves_ray.py (see its --help); so does its exit
# status (0, 64, 65, 75: see waves_ray.py). 69: there is no venv with ray
# (one line on stderr says so): run make cluster-deps. RAY_VENV names another venv.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
venv=${RAY_VENV:-$here/../../.build/ray-venv}
if [ ! -x "$venv/bin/python" ]; then
  echo "waves-ray: no Ray venv at $venv: run 'make cluster-deps' (or contrib/ray/setup-venv.sh)" >&2
  exit 69
fi
exec "$venv/bin/python" "$here/waves_ray.py" "$@"
