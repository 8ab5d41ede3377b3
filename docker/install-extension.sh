#!/usr/bin/env bash
# Installs hindsight_pg into a PostgreSQL 15 image that already has pgvector and
# plpython3u (the Citus and pg_search images). Run from the project root.
set -euo pipefail
PG_CONFIG=${PG_CONFIG:-pg_config}
VERSION=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" hindsight_pg.control)
LIB=/usr/local/lib/hindsight_pg/python/$VERSION
make extension PG_CONFIG="$PG_CONFIG"
make PGXS_MODE=1 PG_CONFIG="$PG_CONFIG" install
# torch from PyTorch's CPU index: PyPI's default build pulls CUDA libraries of several GB
python3 -m pip install --break-system-packages --no-cache-dir --target "$LIB" \
    --extra-index-url https://download.pytorch.org/whl/cpu -r plpython/requirements.txt
rm -rf "$LIB/hindsight_pl" && cp -r plpython/hindsight_pl "$LIB/hindsight_pl"
chmod -R a+rX /usr/local/lib/hindsight_pg
