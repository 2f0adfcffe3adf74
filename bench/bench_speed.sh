#!/usr/bin/env bash
# The side-by-side run: numplace's default path (a new set's grids: weighted-lp since 2026-11-28) and
# `--grid uniform` beside the PyPI peers and QQWing, one core each, one invocation, ratios printed by
# peer_bench.py. EXTRA_GRIDS="weighted-ilp ..." adds a row per named grid method (the old default).
# Peers live in their own Python 3.12 venv, never in ours (rustoku ships only a cp312 wheel):
#   ~/.pyenv/versions/3.12.1/bin/python -m venv /tmp/peers
#   /tmp/peers/bin/pip install rustoku hodoku-py py-sudoku sudoku-mip-solver "pulp<4" pencilmark
# QQWing is not on PyPI: build it from its public source in a scratch folder outside this repository
# (g++ -O2 main.cpp qqwing.cpp with a three-line config.h), or install a distribution's build
# (Debian: apt-get install qqwing), and point QQWING at the binary; it is never committed, and
# without QQWING the row is left out. NUMPLACE overrides the numplace command (default .venv's).
# Usage: QQWING=/usr/bin/qqwing bench/bench_speed.sh [peer_bench.py flags, e.g. --n 600 --budget 60]
# Figures: docs/benchmarks.md "Side by side with other generators".
set -euo pipefail
cd "$(dirname "$0")/.."
PEERS_PY=${PEERS_PY:-/tmp/peers/bin/python}
NP=${NUMPLACE:-"$PWD/.venv/bin/numplace"}
args=(--ours "$NP generate --count {n} --seed {seed} --symmetry rot180 --minimal" --ours-name numplace-default)
for g in ${EXTRA_GRIDS:-}; do
  args+=(--ours "$NP generate --count {n} --seed {seed} --symmetry rot180 --minimal --grid $g" --ours-name "numplace-$g")
done
args+=(--ours "$NP generate --count {n} --seed {seed} --symmetry rot180 --minimal --grid uniform"
       --ours-name numplace-uniform)
if [[ -n "${QQWING:-}" ]]; then
  args+=(--ours "$QQWING --generate {n} --one-line --symmetry rotate180" --ours-name qqwing)
fi
exec "$PEERS_PY" bench/peer_bench.py "${args[@]}" --subtract-startup --peers hodoku,rustoku,py-sudoku "$@"
