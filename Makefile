# hindsight_pg
#
#   make install       (as root) everything a fresh Debian 12 machine needs: Debian
#                      packages, pgvector, the extension, the in-database Python,
#                      the driver's virtual environment. A second run changes nothing.
#   make demo          install if needed, then retain a sample conversation and recall.
#   make test          unit and database tests (installs the extension files first).
#   make lint          ruff and mypy.
#   make bench         LoCoMo quality, recall latency, providers (docs/benchmarks.md), about 15 minutes.
#   make bench-retain  retain throughput at 10,000 facts (docs/benchmarks.md), about 5 minutes.
#   make bench-consolidate  offline consolidation against a pairwise scan (docs/benchmarks.md), about 5 minutes.
#
# The extension itself is a plain PGXS build: `make extension` builds the
# versioned script from sql/, `make install-extension` installs it.

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

PG_CONFIG ?= /usr/lib/postgresql/15/bin/pg_config
PYTHON ?= python3
VENV ?= .venv
PYTHON_LIB_ROOT ?= /usr/local/lib/hindsight_pg/python
PGVECTOR_MIN := 0.8.0
DEB_PACKAGES := postgresql-15 postgresql-contrib postgresql-plpython3-15 postgresql-server-dev-15 \
                build-essential ca-certificates python3-venv

# pip on this kind of machine warns about configured index folders that do not
# exist; hide those lines, keep pip's exit status (pipefail).
HIDE_PIP_NOISE := { grep -v '^WARNING: Location' || true; }

VERSION := $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" hindsight_pg.control)
PYTHON_LIB_DIR := $(PYTHON_LIB_ROOT)/$(VERSION)
FUNCTION_SOURCES := $(sort $(wildcard sql/functions/*.sql))
SQL_SOURCES := $(sort $(wildcard sql/schema/*.sql)) $(FUNCTION_SOURCES)
EXT_SCRIPT := build/hindsight_pg--$(VERSION).sql
# Released versions, frozen in sql/releases/, and the upgrade scripts that take them
# forward (sql/upgrades/<from>--<to>.sql: the incremental schema changes, then every
# function file, which are all CREATE OR REPLACE).
RELEASE_SCRIPTS := $(patsubst sql/releases/%,build/%,$(wildcard sql/releases/hindsight_pg--*.sql))
UPGRADE_SCRIPTS := $(patsubst sql/upgrades/%,build/hindsight_pg--%,$(wildcard sql/upgrades/*--*.sql))
ALL_SCRIPTS := $(EXT_SCRIPT) $(RELEASE_SCRIPTS) $(UPGRADE_SCRIPTS)

# The versioned extension script: schema files, then function files, with the
# in-database Python directory filled in. The package version must equal the
# extension version (the UDFs check it at run time too).
$(EXT_SCRIPT): $(SQL_SOURCES) hindsight_pg.control plpython/hindsight_pl/__init__.py Makefile
	@grep -q '^__version__ = "$(VERSION)"$$' plpython/hindsight_pl/__init__.py || \
	  { echo "plpython/hindsight_pl/__init__.py does not say __version__ = \"$(VERSION)\" (hindsight_pg.control)"; exit 1; }
	@mkdir -p build
	@{ echo "-- hindsight_pg $(VERSION), built from sql/ by make; do not edit."; \
	   printf '%s\n' '\echo Use "CREATE EXTENSION hindsight_pg CASCADE" to load this file. \quit'; \
	   for f in $(SQL_SOURCES); do echo; echo "-- $$f"; cat $$f; done; } \
	  | sed 's|@PYTHON_LIB_DIR@|$(PYTHON_LIB_DIR)|g' > $@.tmp && mv $@.tmp $@

# A released script gets the Python directory of its own version.
$(RELEASE_SCRIPTS): build/%: sql/releases/% Makefile
	@mkdir -p build
	@sed 's|@PYTHON_LIB_DIR@|$(PYTHON_LIB_ROOT)/$(word 2,$(subst --, ,$(basename $*)))|g' $< > $@

$(UPGRADE_SCRIPTS): build/hindsight_pg--%: sql/upgrades/% $(FUNCTION_SOURCES) Makefile
	@mkdir -p build
	@{ echo "-- hindsight_pg upgrade $(basename $*), built from sql/ by make; do not edit."; \
	   printf '%s\n' '\echo Use "ALTER EXTENSION hindsight_pg UPDATE" to load this file. \quit'; \
	   for f in $< $(FUNCTION_SOURCES); do echo; echo "-- $$f"; cat $$f; done; } \
	  | sed 's|@PYTHON_LIB_DIR@|$(PYTHON_LIB_DIR)|g' > $@.tmp && mv $@.tmp $@

ifdef PGXS_MODE
EXTENSION = hindsight_pg
DATA_built = $(ALL_SCRIPTS)
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
else

SHAREDIR = $(shell $(PG_CONFIG) --sharedir 2>/dev/null || echo /usr/share/postgresql/15)

.PHONY: all extension install install-extension system-packages pgvector python-lib venv demo test lint bench bench-retain bench-consolidate clean

all extension: $(ALL_SCRIPTS)

install: system-packages pgvector venv install-extension
	@echo "[install] done: extension hindsight_pg $(VERSION), in-database Python in $(PYTHON_LIB_DIR), driver in $(VENV)"

system-packages:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then echo "[install] Debian packages: already installed"; \
	else echo "[install] Debian packages: installing" $$missing; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; fi

# pgvector is not packaged for Debian 12: fetch Debian trixie's source package
# with a private apt configuration (the system's apt sources stay untouched)
# and build it against PostgreSQL 15.
pgvector: system-packages
	@installed=$$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(SHAREDIR)/extension/vector.control 2>/dev/null); \
	if [ -n "$$installed" ] && dpkg --compare-versions "$$installed" ge $(PGVECTOR_MIN); then \
	  echo "[install] pgvector $$installed: already installed"; \
	else \
	  echo "[install] pgvector: building Debian trixie's source package (>= $(PGVECTOR_MIN))"; \
	  set -e; work=$$(mktemp -d); mkdir -p $$work/lists/partial $$work/cache/archives/partial $$work/parts; \
	  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > $$work/sources.list; \
	  printf 'Dir::Etc::SourceList "%s/sources.list";\nDir::Etc::SourceParts "%s/parts";\nDir::State::Lists "%s/lists";\nDir::Cache "%s/cache";\n' \
	    $$work $$work $$work $$work > $$work/apt.conf; \
	  APT_CONFIG=$$work/apt.conf apt-get update -q; \
	  cd $$work && APT_CONFIG=$$work/apt.conf apt-get source -q --download-only pgvector; \
	  tar xzf $$work/pgvector_*.orig.tar.gz -C $$work; \
	  $(MAKE) -s -C $$work/pgvector-* PG_CONFIG=$(PG_CONFIG) OPTFLAGS=""; \
	  $(MAKE) -s -C $$work/pgvector-* PG_CONFIG=$(PG_CONFIG) install; \
	  rm -rf $$work; \
	fi

# Extension files (PGXS) and the in-database Python, each only when changed,
# so `make test` can run it every time.
install-extension: $(ALL_SCRIPTS) python-lib
	@same=yes; for f in hindsight_pg.control $(ALL_SCRIPTS); do \
	  cmp -s $$f $(SHAREDIR)/extension/$$(basename $$f) || same=no; done; \
	if [ $$same = yes ]; then \
	  echo "[install] extension hindsight_pg $(VERSION): up to date"; \
	else echo "[install] extension hindsight_pg $(VERSION): installing into $(SHAREDIR)/extension"; \
	  $(MAKE) -s PGXS_MODE=1 install; fi

python-lib: $(VENV)/.installed
	@stamp=$(PYTHON_LIB_DIR)/.requirements.sha256; want=$$(sha256sum plpython/requirements.txt | cut -d' ' -f1); \
	if [ "$$(cat $$stamp 2>/dev/null)" = "$$want" ]; then \
	  echo "[install] in-database Python packages: up to date in $(PYTHON_LIB_DIR)"; \
	else echo "[install] in-database Python packages: installing into $(PYTHON_LIB_DIR)"; \
	  set -e; install -d -m 755 $(PYTHON_LIB_DIR); \
	  $(VENV)/bin/pip install -q --disable-pip-version-check --upgrade --target $(PYTHON_LIB_DIR) \
	    -r plpython/requirements.txt 2>&1 | $(HIDE_PIP_NOISE); \
	  echo $$want > $$stamp; fi; \
	if diff -rq -x __pycache__ plpython/hindsight_pl $(PYTHON_LIB_DIR)/hindsight_pl >/dev/null 2>&1; then \
	  echo "[install] hindsight_pl $(VERSION): up to date"; \
	else echo "[install] hindsight_pl $(VERSION): copying into $(PYTHON_LIB_DIR)"; \
	  rm -rf $(PYTHON_LIB_DIR)/hindsight_pl; \
	  cp -r plpython/hindsight_pl $(PYTHON_LIB_DIR)/hindsight_pl; \
	  rm -rf $(PYTHON_LIB_DIR)/hindsight_pl/__pycache__; \
	  chmod -R a+rX $(PYTHON_LIB_ROOT); fi

venv: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	@echo "[install] driver: virtual environment $(VENV) (torch 2.13.0 CPU, sentence-transformers, psycopg 3)"
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	@$(VENV)/bin/pip install -q --disable-pip-version-check torch==2.13.0 2>&1 | $(HIDE_PIP_NOISE)
	@$(VENV)/bin/pip install -q --disable-pip-version-check -e '.[dev]' 2>&1 | $(HIDE_PIP_NOISE)
	@$(VENV)/bin/python -c 'import torch, sentence_transformers, hindsight_pg' # fail here if an install failed
	@echo "[install] dbt: virtual environment .venv-dbt (dbt-core 1.10, dbt-postgres 1.9) for examples/dbt"
	@test -x .venv-dbt/bin/dbt || { $(PYTHON) -m venv .venv-dbt && \
	  .venv-dbt/bin/pip install -q --disable-pip-version-check 'dbt-core==1.10.*' 'dbt-postgres==1.9.*' 2>&1 | $(HIDE_PIP_NOISE); }
	@touch $@

demo:
	@test -f $(VENV)/.installed -a -f $(SHAREDIR)/extension/$(notdir $(EXT_SCRIPT)) || $(MAKE) install
	@$(MAKE) -s install-extension
	@$(VENV)/bin/hindsight-pg demo

test: $(VENV)/.installed install-extension
	$(VENV)/bin/pytest

bench: $(VENV)/.installed install-extension
	$(VENV)/bin/python bench/locomo.py
	$(VENV)/bin/python bench/latency.py
	$(VENV)/bin/python bench/providers.py
	$(VENV)/bin/python bench/temporal.py
	$(VENV)/bin/python bench/report.py

bench-retain: $(VENV)/.installed install-extension
	$(VENV)/bin/python bench/retain.py
	$(VENV)/bin/python bench/report.py

bench-consolidate: $(VENV)/.installed install-extension
	$(VENV)/bin/python bench/consolidate.py
	$(VENV)/bin/python bench/report.py

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check hindsight_pg plpython tests bench
	$(VENV)/bin/ruff format --check hindsight_pg plpython tests bench
	$(VENV)/bin/mypy

clean:
	rm -rf build

endif
