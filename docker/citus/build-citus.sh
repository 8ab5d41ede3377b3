#!/usr/bin/env bash
# Builds and installs Citus from source against PostgreSQL 15 (used by `make citus` and
# docker/citus/Dockerfile). Run as root.
#
#   docker/citus/build-citus.sh SOURCE
#
# SOURCE is a Citus source tarball (git archive of a tag) or an unpacked source tree. Nothing
# is done when the installed Citus is already that version. Environment: PG_CONFIG
# (default /usr/lib/postgresql/15/bin/pg_config), JOBS (default: number of cores).
#
# One fix is applied to a temporary copy at build time, never to SOURCE: PostgreSQL 15.18
# exports have_createdb_privilege() from commands/dbcommands.h, and Citus 13.2's
# src/include/pg_version_compat.h also defines a static inline copy of it for PostgreSQL 15
# ("static declaration follows non-static declaration"); the copy is removed (the server's
# function does the same check).
set -euo pipefail
src=${1:?usage: build-citus.sh SOURCE (a Citus source tarball or directory)}
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
JOBS=${JOBS:-$(nproc)}
DEB_DEPS="build-essential postgresql-server-dev-15 liblz4-dev libzstd-dev libkrb5-dev libselinux1-dev
          libxslt1-dev libpam0g-dev libreadline-dev libssl-dev"

[ -e "$src" ] || { echo "[citus] $src does not exist" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$src" ]; then
  cp -r "$src" "$work/citus"
else
  mkdir "$work/citus" && tar xzf "$src" -C "$work/citus" --strip-components=1
fi
want=$(sed -n 's/^AC_INIT(\[Citus\], \[\([^]]*\)\].*/\1/p' "$work/citus/configure.ac")
[ -n "$want" ] || { echo "[citus] $src: no Citus version in configure.ac" >&2; exit 1; }
# citus.so carries its version string ("Citus 13.2.2 on x86_64-...", citus_version()).
if grep -aqF "Citus $want " "$($PG_CONFIG --pkglibdir)/citus.so" 2>/dev/null; then
  echo "[citus] Citus $want: already installed"; exit 0
fi

missing=$(for p in $DEB_DEPS; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || echo "$p"; done)
if [ -n "$missing" ]; then
  echo "[citus] Debian packages: installing" $missing
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
fi

compat=$work/citus/src/include/pg_version_compat.h
if "$PG_CONFIG" --includedir-server | xargs -I{} grep -q 'have_createdb_privilege' {}/commands/dbcommands.h; then
  python3 - "$compat" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
fixed, n = re.subn(r"\nstatic inline bool\nhave_createdb_privilege\(void\)\n\{.*?\n\}\n", "\n", text, flags=re.S)
if n:
    open(path, "w").write(fixed)
    print("[citus] removed pg_version_compat.h's static have_createdb_privilege() (the server exports it)")
PY
fi

echo "[citus] building Citus $want against $($PG_CONFIG --version) with $JOBS jobs (about 4 minutes on 2 cores)"
cd "$work/citus"
./configure -q PG_CONFIG="$PG_CONFIG" --without-libcurl > "$work/configure.log" 2>&1 \
  || { tail -30 "$work/configure.log"; exit 1; }
make -s -j"$JOBS" > "$work/make.log" 2>&1 || { grep -E 'error|Error' "$work/make.log" | head -30; exit 1; }
make -s install > "$work/install.log" 2>&1 || { tail -30 "$work/install.log"; exit 1; }
echo "[citus] Citus $want installed into $($PG_CONFIG --pkglibdir)"
