# hindsight_pg
#
#   make install       (as root) everything a fresh Debian 12 machine needs: Debian
#                      packages, pgvector, the extension, the in-database Python,
#                      the driver's virtual environment. A second run changes nothing.
#   make demo          install if needed, then retain a sample conversation and recall.
#   make help          this list.
#   make test          unit and database tests (installs the extension files first, and Debian's nodejs
#                      and npm if missing), in TEST_WORKERS (2) processes, each with its own PostgreSQL, about
#                      3 minutes on two cores; the ten slowest are listed at the end.
#   make test-slow     the tests make test leaves out (marked slow: what waits on timeouts, servers and
#                      subprocesses, dbt, LoCoMo, MCP, large HNSW banks, sixteen writers, upgrades, the
#                      agent-memory suite's floor, the inspector in chromium, which it installs from Debian), one
#                      process, about 7 minutes.
#   make lint          ruff and mypy.
#   make citus         (as root) build and install Citus 13.2.2 from CITUS_SRC (a source tarball or tree;
#                      default ../shared/third_party/citus-13.2.2.tar.gz), about 4 minutes; skipped
#                      when that version is installed.
#   make bench-citus   recall latency and retain throughput on one node and through a Citus coordinator,
#                      100 banks over two workers (docs/benchmarks.md), about 10 minutes.
#   make test-citus    tests/citus/ on a throwaway three-node Citus cluster (docs/scale-out.md).
#   make freeze        release this version: freeze its scripts and hindsight_pl (see below).
#   make bench         LoCoMo quality, recall latency, providers, bounded work (docs/benchmarks.md), about 17 minutes.
#   make train-reranker  train our cross-encoder on recall's own candidates (bench/candidates.py: LongMemEval's
#                      training banks, QMSum meetings, the suite's dev split) and SQuAD, on the CPU, an hour or
#                      more, resumable; export its best checkpoint to ONNX into build/reranker.
#   make bench-retain  retain throughput at 10,000 facts (docs/benchmarks.md), about 5 minutes.
#   make bench-longmemeval  LongMemEval_S (dev split): the 60 held-out questions, user turns, turn-level
#                      Recall@5/10, NDCG@10 and session Recall@5 (docs/benchmarks.md), about 40 minutes on a
#                      first run (it retains each question's haystack), 2 after.
#   make bench-consolidate  offline consolidation against a pairwise scan (docs/benchmarks.md), about 5 minutes.
#   make bench-banks   5,000 banks: planning, locks, concurrency, load (docs/reliability.md), about 15 minutes
#                      on a first run (it builds its databases), 5 after.
#
# The extension itself is a plain PGXS build: `make extension` builds the
# versioned script from sql/ (and copies the released ones from releases/),
# `make install-extension` installs them.

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

PG_CONFIG ?= /usr/lib/postgresql/15/bin/pg_config
PYTHON ?= python3
VENV ?= .venv
PYTHON_LIB_ROOT ?= /usr/local/lib/hindsight_pg/python
PGVECTOR_MIN := 0.8.0
CITUS_VERSION := 13.2.2
# a Citus source tarball or tree; by default the one beside the project, read where it lies
CITUS_SRC ?= ../shared/third_party/citus-$(CITUS_VERSION).tar.gz
DEB_PACKAGES := postgresql-15 postgresql-contrib postgresql-plpython3-15 postgresql-server-dev-15 \
                build-essential ca-certificates python3-venv

# pip on this kind of machine warns about configured index folders that do not
# exist; hide those lines, keep pip's exit status (pipefail).
HIDE_PIP_NOISE := { grep -v '^WARNING: Location' || true; }

EXT_VERSION := $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" hindsight_pg.control)
PYTHON_LIB_DIR := $(PYTHON_LIB_ROOT)/$(EXT_VERSION)
# The in-database Python's dependencies, installed once and shared by every version's directory.
PYTHON_DEPS_DIR := $(PYTHON_LIB_ROOT)/site-packages
# sql/functions/ by pipeline, in this order (a SQL function's body is checked when it is made, so what it calls
# comes first): what every part uses, banks, models, retain, recall, reflect, then the views over all of it
FUNCTION_GROUPS := common banks models retain recall reflect views
FUNCTION_SOURCES := $(foreach g,$(FUNCTION_GROUPS),$(sort $(wildcard sql/functions/$(g)/*.sql)))
SQL_SOURCES := $(sort $(wildcard sql/schema/*.sql)) $(FUNCTION_SOURCES)
EXT_SCRIPT := build/hindsight_pg--$(EXT_VERSION).sql

# Released versions are frozen in releases/<v>/, outside the live source: each one's install
# script (hindsight_pg--<v>.sql) and the upgrade script that led to it
# (hindsight_pg--<from>--<v>.sql), as built when it was released, its hindsight_pl and its
# requirements.txt. They are copied, never rebuilt, and checked by their checksums
# (releases/SHA256SUMS, tests/unit/test_releases.py), so what an upgrade from a released version runs
# never changes.
FROZEN_SOURCES := $(sort $(wildcard releases/*/hindsight_pg--*.sql))
FROZEN_SCRIPTS := $(addprefix build/,$(notdir $(FROZEN_SOURCES)))
RELEASED_VERSIONS := $(sort $(notdir $(patsubst %/,%,$(dir $(FROZEN_SOURCES)))))
# The one upgrade script still open: sql/upgrades/<last release>--$(EXT_VERSION).sql holds the
# schema changes since the last release; the build appends every function file (all
# CREATE OR REPLACE) to it.
UPGRADE_SOURCE := $(wildcard sql/upgrades/*--$(EXT_VERSION).sql)
UPGRADE_SCRIPT := $(patsubst sql/upgrades/%,build/hindsight_pg--%,$(UPGRADE_SOURCE))
ifneq ($(filter $(EXT_VERSION),$(RELEASED_VERSIONS)),)
$(error $(EXT_VERSION) is released (releases/): raise default_version in hindsight_pg.control and __version__ in \
  plpython/hindsight_pl/__init__.py, and start sql/upgrades/$(EXT_VERSION)--<next>.sql)
endif
ifneq ($(filter-out $(UPGRADE_SOURCE),$(wildcard sql/upgrades/*)),)
$(error sql/upgrades/ holds $(filter-out $(UPGRADE_SOURCE),$(wildcard sql/upgrades/*)), which does not lead to $(EXT_VERSION): \
  freeze a released version with `make freeze` before raising the version)
endif
ALL_SCRIPTS := $(EXT_SCRIPT) $(FROZEN_SCRIPTS) $(UPGRADE_SCRIPT)

# The text of this version's install script, and of its upgrade script, with the
# placeholder @PYTHON_LIB_DIR@ left in (the rules below fill it in; `make freeze` keeps it).
# A line @LIMITS_JSON@ in a SQL file stands for the limits' one definition, plpython/hindsight_pl/limits.json
# (sql/functions/common/limits.sql: hindsight.limits()).
LIMITS_JSON := plpython/hindsight_pl/limits.json
SQL_FILE = sed -e '/^@LIMITS_JSON@$$/{r $(LIMITS_JSON)' -e 'd;}'
EXT_TEXT = { echo "-- hindsight_pg $(EXT_VERSION), built from sql/ by make; do not edit."; \
  printf '%s\n' '\echo Use "CREATE EXTENSION hindsight_pg CASCADE" to load this file. \quit'; \
  for f in $(SQL_SOURCES); do echo; echo "-- $$f"; $(SQL_FILE) $$f; done; }
UPGRADE_TEXT = { echo "-- hindsight_pg upgrade $(basename $(notdir $(UPGRADE_SOURCE))), built from sql/ by make; do not edit."; \
  printf '%s\n' '\echo Use "ALTER EXTENSION hindsight_pg UPDATE" to load this file. \quit'; \
  for f in $(UPGRADE_SOURCE) $(FUNCTION_SOURCES); do echo; echo "-- $$f"; $(SQL_FILE) $$f; done; }

# The versioned extension script: schema files, then function files, with the
# in-database Python directory filled in. The package version must equal the
# extension version (the UDFs check it at run time too).
$(EXT_SCRIPT): $(SQL_SOURCES) $(LIMITS_JSON) hindsight_pg.control plpython/hindsight_pl/__init__.py Makefile
	@grep -q '^__version__ = "$(EXT_VERSION)"$$' plpython/hindsight_pl/__init__.py || \
	  { echo "plpython/hindsight_pl/__init__.py does not say __version__ = \"$(EXT_VERSION)\" (hindsight_pg.control)"; exit 1; }
	@mkdir -p build
	@$(EXT_TEXT) | sed 's|@PYTHON_LIB_DIR@|$(PYTHON_LIB_DIR)|g' > $@.tmp && mv $@.tmp $@

$(UPGRADE_SCRIPT): build/hindsight_pg--%: sql/upgrades/% $(FUNCTION_SOURCES) $(LIMITS_JSON) Makefile
	@mkdir -p build
	@$(UPGRADE_TEXT) | sed 's|@PYTHON_LIB_DIR@|$(PYTHON_LIB_DIR)|g' > $@.tmp && mv $@.tmp $@

# A frozen script gets the Python directory of the version it installs or leads to: its folder's.
define FROZEN_RULE
build/$(notdir $(1)): $(1) Makefile
	@mkdir -p build
	@sed 's|@PYTHON_LIB_DIR@|$(PYTHON_LIB_ROOT)/$(notdir $(patsubst %/,%,$(dir $(1))))|g' $$< > $$@.tmp && mv $$@.tmp $$@
endef
$(foreach f,$(FROZEN_SOURCES),$(eval $(call FROZEN_RULE,$(f))))

ifdef PGXS_MODE
EXTENSION = hindsight_pg
DATA_built = $(ALL_SCRIPTS)
# two C functions: the row-level security check (src/hindsight_pg.c) and the BM25 scorer (src/bm25.c)
MODULE_big = hindsight_pg
OBJS = src/hindsight_pg.o src/bm25.o
# the BM25 sums as SQL computes them, where the target has fused multiply-adds (aarch64)
PG_CFLAGS = -ffp-contract=off
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
else

SHAREDIR = $(shell $(PG_CONFIG) --sharedir 2>/dev/null || echo /usr/share/postgresql/15)
PKGLIBDIR = $(shell $(PG_CONFIG) --pkglibdir 2>/dev/null || echo /usr/lib/postgresql/15/lib)

.PHONY: help ui-assets browser-packages node-packages all extension install install-extension system-packages pgvector python-lib freeze venv demo test test-slow lint bench bench-longmemeval train-reranker bench-retain bench-consolidate bench-banks citus test-citus bench-citus clean

all extension: $(ALL_SCRIPTS)

install: system-packages pgvector venv install-extension
	@echo "[install] done: extension hindsight_pg $(EXT_VERSION), in-database Python in $(PYTHON_LIB_DIR), driver in $(VENV)"

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
	@$(MAKE) -s PGXS_MODE=1 all
	@same=yes; for f in hindsight_pg.control $(ALL_SCRIPTS); do \
	  cmp -s $$f $(SHAREDIR)/extension/$$(basename $$f) || same=no; done; \
	cmp -s hindsight_pg.so $(PKGLIBDIR)/hindsight_pg.so || same=no; \
	if [ $$same = yes ]; then \
	  echo "[install] extension hindsight_pg $(EXT_VERSION): up to date"; \
	else echo "[install] extension hindsight_pg $(EXT_VERSION): installing into $(SHAREDIR)/extension"; \
	  $(MAKE) -s PGXS_MODE=1 install; fi

# The in-database Python. Its dependencies are installed once, into $(PYTHON_DEPS_DIR).
# Each version, the released ones and this one, has a directory $(PYTHON_LIB_ROOT)/<v>
# (the one its functions put on sys.path) holding its own hindsight_pl (this tree's, or
# the frozen releases/<v>/hindsight_pl) and a symlink to each entry of the
# dependency directory, so a database still on a released version keeps working, and
# PyTorch is on disk once.
python-lib: $(VENV)/.installed
	@stamp=$(PYTHON_DEPS_DIR)/.requirements.sha256; want=$$(sha256sum plpython/requirements.txt | cut -d' ' -f1); \
	if [ "$$(cat $$stamp 2>/dev/null)" = "$$want" ]; then \
	  echo "[install] in-database Python packages: up to date in $(PYTHON_DEPS_DIR)"; \
	else echo "[install] in-database Python packages: installing into $(PYTHON_DEPS_DIR)"; \
	  set -e; install -d -m 755 $(PYTHON_DEPS_DIR); \
	  $(VENV)/bin/pip install -q --disable-pip-version-check --upgrade --target $(PYTHON_DEPS_DIR) \
	    -r plpython/requirements.txt 2>&1 | $(HIDE_PIP_NOISE); \
	  chmod -R a+rX $(PYTHON_LIB_ROOT); echo $$want > $$stamp; fi
	@set -e; deps=$$(cd $(PYTHON_DEPS_DIR) && ls -A | grep -vx '\.requirements\.sha256' | LC_ALL=C sort); \
	for v in $(RELEASED_VERSIONS) $(EXT_VERSION); do \
	  if [ $$v = $(EXT_VERSION) ]; then src=plpython/hindsight_pl; else src=releases/$$v/hindsight_pl; fi; \
	  dir=$(PYTHON_LIB_ROOT)/$$v; \
	  have=$$(find $$dir -mindepth 1 -maxdepth 1 ! -name hindsight_pl -printf '%f %l\n' 2>/dev/null | LC_ALL=C sort || true); \
	  if [ "$$have" != "$$(for e in $$deps; do echo "$$e $(PYTHON_DEPS_DIR)/$$e"; done)" ]; then \
	    echo "[install] in-database Python $$v: linking the packages of $(PYTHON_DEPS_DIR) into $$dir"; \
	    install -d -m 755 $$dir; \
	    find $$dir -mindepth 1 -maxdepth 1 ! -name hindsight_pl -exec rm -rf {} +; \
	    for e in $$deps; do ln -s $(PYTHON_DEPS_DIR)/$$e $$dir/$$e; done; fi; \
	  if diff -rq -x __pycache__ $$src $$dir/hindsight_pl >/dev/null 2>&1; then \
	    echo "[install] hindsight_pl $$v: up to date in $$dir"; \
	  else echo "[install] hindsight_pl $$v: copying into $$dir"; \
	    rm -rf $$dir/hindsight_pl; cp -r $$src $$dir/hindsight_pl; rm -rf $$dir/hindsight_pl/__pycache__; \
	    chmod -R a+rX $$dir/hindsight_pl; fi; \
	done
	@if diff -rq hindsight_pg/data/reader $(PYTHON_LIB_ROOT)/models/reader >/dev/null 2>&1; then \
	  echo "[install] the packaged reader: up to date in $(PYTHON_LIB_ROOT)/models/reader"; \
	else echo "[install] the packaged reader: copying into $(PYTHON_LIB_ROOT)/models/reader"; \
	  set -e; rm -rf $(PYTHON_LIB_ROOT)/models/reader; install -d -m 755 $(PYTHON_LIB_ROOT)/models; \
	  cp -r hindsight_pg/data/reader $(PYTHON_LIB_ROOT)/models/reader; chmod -R a+rX $(PYTHON_LIB_ROOT)/models; fi

# Release $(EXT_VERSION): its install script and the upgrade script that leads to it, built
# with the placeholder @PYTHON_LIB_DIR@ kept, its hindsight_pl and its requirements go to
# releases/$(EXT_VERSION)/; their checksums to releases/SHA256SUMS.
# The upgrade's source leaves sql/upgrades/ (the frozen script holds it). Then raise the
# version (hindsight_pg.control, plpython/hindsight_pl/__init__.py) and start
# sql/upgrades/$(EXT_VERSION)--<next>.sql.
freeze:
	@test ! -e releases/$(EXT_VERSION) || { echo "[freeze] $(EXT_VERSION) is released already"; exit 1; }
	@test -n "$(UPGRADE_SOURCE)" || { echo "[freeze] no sql/upgrades/*--$(EXT_VERSION).sql to freeze"; exit 1; }
	@set -e; mkdir -p releases/$(EXT_VERSION); install=releases/$(EXT_VERSION)/hindsight_pg--$(EXT_VERSION).sql; \
	upgrade=releases/$(EXT_VERSION)/hindsight_pg--$(notdir $(UPGRADE_SOURCE)); \
	$(EXT_TEXT) | sed -e "1s|.*|-- hindsight_pg $(EXT_VERSION), as released (frozen: never edit; sql/upgrades/ takes it forward).|" \
	  -e "2s|hindsight_pg CASCADE|hindsight_pg VERSION '$(EXT_VERSION)' CASCADE|" > $$install; \
	$(UPGRADE_TEXT) | sed "1s|.*|-- hindsight_pg upgrade $(basename $(notdir $(UPGRADE_SOURCE))), as released (frozen: never edit).|" > $$upgrade; \
	cp -r plpython/hindsight_pl plpython/requirements.txt releases/$(EXT_VERSION)/; \
	rm -rf releases/$(EXT_VERSION)/hindsight_pl/__pycache__; \
	sha256sum $$install $$upgrade $$(find releases/$(EXT_VERSION)/hindsight_pl releases/$(EXT_VERSION)/requirements.txt -type f \
	  | LC_ALL=C sort) >> releases/SHA256SUMS; \
	rm $(UPGRADE_SOURCE); \
	echo "[freeze] $(EXT_VERSION) frozen in releases/$(EXT_VERSION)/ (releases/SHA256SUMS)"

venv: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	@echo "[install] driver: virtual environment $(VENV) (torch 2.13.0 CPU, sentence-transformers, psycopg 3)"
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	@$(VENV)/bin/pip install -q --disable-pip-version-check torch==2.13.0 2>&1 | $(HIDE_PIP_NOISE)
	@$(VENV)/bin/pip install -q --disable-pip-version-check -e '.[dev]' 2>&1 | $(HIDE_PIP_NOISE)
	@$(VENV)/bin/python -c 'import torch, sentence_transformers, hindsight_pg' # fail here if an install failed
	@$(MAKE) -s ui-assets
	@echo "[install] dbt: virtual environment .venv-dbt (dbt-core 1.10, dbt-postgres 1.9) for examples/dbt"
	@test -x .venv-dbt/bin/dbt || { $(PYTHON) -m venv .venv-dbt && \
	  .venv-dbt/bin/pip install -q --disable-pip-version-check 'dbt-core==1.10.*' 'dbt-postgres==1.9.*' 2>&1 | $(HIDE_PIP_NOISE); }
	@touch $@

# The inspector's graph drawing (docs/ui.md): vis-network, taken at build time from the pyvis
# wheel that ships it (nothing is loaded from the network when the page runs).
VIS_NETWORK := hindsight_pg/ui/static/vis-network.min.js
ui-assets: $(VIS_NETWORK)
$(VIS_NETWORK):
	@echo "[install] inspector: vis-network 9.1.2 from the pyvis 0.3.2 wheel"
	@tmp=$$(mktemp -d) && $(VENV)/bin/pip download -q --disable-pip-version-check --no-deps -d $$tmp pyvis==0.3.2 \
	  2>&1 | $(HIDE_PIP_NOISE); $(VENV)/bin/python -c "import sys, zipfile, glob; \
	  w = zipfile.ZipFile(glob.glob(sys.argv[1] + '/pyvis-*.whl')[0]); \
	  open(sys.argv[2], 'wb').write(w.read('pyvis/lib/vis-9.1.2/vis-network.min.js'))" $$tmp $@ && rm -rf $$tmp

# make help: the targets and what they do (the comment at the top of this file)
help:
	@sed -n '2,/^$$/{s/^# \{0,1\}//;p;}' Makefile

demo:
	@test -f $(VENV)/.installed -a -f $(SHAREDIR)/extension/$(notdir $(EXT_SCRIPT)) || $(MAKE) install
	@$(MAKE) -s install-extension
	@$(VENV)/bin/hindsight-pg demo

# a test file's tests run in one process (--dist loadfile: its module fixtures are built once)
TEST_WORKERS ?= 2
test: $(VENV)/.installed install-extension node-packages
	$(VENV)/bin/pytest -m "not slow" -n $(TEST_WORKERS) --dist loadfile

# The Node example's test (tests/db/test_node_example.py) runs node and npm: Debian's (Node 18, npm 9) when one is missing.
NODE_PACKAGES := nodejs npm
node-packages:
	@if command -v node >/dev/null && command -v npm >/dev/null; then :; \
	else echo "[install] Debian packages for the Node example's test:" $(NODE_PACKAGES); \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(NODE_PACKAGES); fi

# The inspector's browser test (tests/db/test_ui_browser.py) drives Debian's chromium through its driver.
BROWSER_PACKAGES := chromium chromium-driver
browser-packages:
	@missing=$$(for p in $(BROWSER_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "[install] Debian packages for the browser test:" $$missing; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; fi

test-slow: $(VENV)/.installed install-extension browser-packages
	$(VENV)/bin/pytest -m slow

# Citus is built from source (no Debian 12 package of it carries PostgreSQL 15 here); the one fix it
# needs on PostgreSQL 15.18+ is applied to a copy at build time (docker/citus/build-citus.sh).
citus:
	@if grep -aqF "Citus $(CITUS_VERSION) " "$$($(PG_CONFIG) --pkglibdir)/citus.so" 2>/dev/null; then \
	  echo "[citus] Citus $(CITUS_VERSION): already installed"; exit 0; fi; \
	test -e "$(CITUS_SRC)" || { echo "[citus] no Citus source at $(CITUS_SRC): set CITUS_SRC to a tarball or tree of" \
	  "Citus $(CITUS_VERSION) (git archive of tag v$(CITUS_VERSION) of https://github.com/citusdata/citus)"; exit 1; }; \
	PG_CONFIG=$(PG_CONFIG) bash docker/citus/build-citus.sh $(CITUS_SRC)

test-citus: $(VENV)/.installed install-extension
	@$(PG_CONFIG) --pkglibdir | xargs -I{} test -f {}/citus.so || { echo "[citus] Citus is not installed: run make citus"; exit 1; }
	$(VENV)/bin/pytest tests/citus

bench-citus: $(VENV)/.installed install-extension
	$(VENV)/bin/python bench/citus.py

bench: $(VENV)/.installed install-extension
	$(VENV)/bin/python bench/locomo.py
	$(VENV)/bin/python bench/latency.py
	$(VENV)/bin/python bench/providers.py
	$(VENV)/bin/python bench/temporal.py
	$(VENV)/bin/python bench/bounded.py
	$(VENV)/bin/python bench/report.py

bench-longmemeval: $(VENV)/.installed install-extension
	$(VENV)/bin/python bench/longmemeval.py

# Our cross-encoder (bench/train_reranker.py): recall's own candidates mined first (the banks of bench/longmemeval.py
# --split train and bench/agent_memory.py; QMSum's are retained here), an hour or more on 2 cores, resumable; then the
# best checkpoint's ONNX export.
train-reranker: $(VENV)/.installed install-extension
	$(VENV)/bin/python bench/candidates.py
	$(VENV)/bin/python bench/train_reranker.py
	$(VENV)/bin/python bench/train_reranker.py --export

bench-retain: $(VENV)/.installed install-extension
	$(VENV)/bin/python bench/retain.py
	$(VENV)/bin/python bench/report.py

bench-banks: $(VENV)/.installed install-extension
	$(VENV)/bin/python bench/many_banks.py

bench-consolidate: $(VENV)/.installed install-extension
	$(VENV)/bin/python bench/consolidate.py
	$(VENV)/bin/python bench/report.py

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check hindsight_pg plpython tests bench
	$(VENV)/bin/ruff format --check hindsight_pg plpython tests bench
	$(VENV)/bin/mypy

clean:
	rm -rf build hindsight_pg.so src/*.o src/*.bc

endif
