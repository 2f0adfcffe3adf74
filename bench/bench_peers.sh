#!/usr/bin/env bash
# numplace `generate` (engine hybrid and ilp) side by side with the PyPI peers, one core, one run.
# The peers live in their own Python 3.12 venv (rustoku ships only a cp312 wheel), never in ours:
#   ~/.pyenv/versions/3.12.1/bin/python -m venv /tmp/peers
#   /tmp/peers/bin/pip install rustoku hodoku-py py-sudoku sudoku-mip-solver "pulp<4" pencilmark
# Usage: bench/bench_peers.sh [extra peer_bench.py flags, e.g. --quick]
set -euo pipefail
cd "$(dirname "$0")/.."
PEERS_PY=${PEERS_PY:-/tmp/peers/bin/python}
NP="$PWD/.venv/bin/numplace"
exec "$PEERS_PY" bench/peer_bench.py \
  --ours "$NP generate --count {n} --seed {seed} --symmetry rot180 --minimal --engine hybrid" --ours-name numplace-hybrid \
  --ours "$NP generate --count {n} --seed {seed} --symmetry rot180 --minimal --engine ilp" --ours-name numplace-ilp \
  --subtract-startup "$@"
