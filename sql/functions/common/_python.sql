-- Loading the in-database Python package hindsight_pl.
--
-- Every PL/Python function starts with
--     hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
-- so the package is imported once per session and its version checked once.
-- Errors are raised from PL/pgSQL (hindsight._require_python), not from Python,
-- so they read as plain messages with a SQLSTATE and a hint; retain and recall
-- call it first for that reason.

CREATE OR REPLACE FUNCTION hindsight._python_path()
RETURNS text
LANGUAGE sql STABLE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    -- Python imported from this directory runs inside the server as its operating
    -- system user, so an ordinary role must not redirect it: the setting counts in
    -- a superuser's session, and otherwise only as written in the server's
    -- configuration (postgresql.conf, ALTER SYSTEM).
    SELECT coalesce(
        CASE WHEN hindsight._is_superuser(hindsight._invoker())
             THEN nullif(current_setting('hindsight.python_path', true), '')
             ELSE (SELECT nullif(f.setting, '') FROM pg_file_settings f
                   WHERE f.name = 'hindsight.python_path' AND f.error IS NULL
                   ORDER BY f.seqno DESC LIMIT 1) END,
        '@PYTHON_LIB_DIR@')
$$;
COMMENT ON FUNCTION hindsight._python_path() IS
    'Directory holding the hindsight_pl package and its dependencies: the setting hindsight.python_path (in a '
    'superuser''s session; for other roles only as set in the server configuration, so they cannot redirect the '
    'import), else the directory chosen at build time.';

CREATE OR REPLACE FUNCTION hindsight._load(
    OUT sqlstate text,
    OUT message text,
    OUT hint text
)
LANGUAGE plpython3u
AS $$
import os
import sys

if "hindsight_pl" in GD:
    return None, None, None
path = plpy.execute("SELECT hindsight._python_path() AS p")[0]["p"]
if path not in sys.path:
    sys.path.insert(0, path)
# one thread per backend for the models and numpy's BLAS, set before any of them loads, whatever the server's
# environment says: the server's sessions share the cores, and one call between two checkpoints stays short
# (docs/providers.md#threads, docs/reliability.md). hindsight_pl.providers reads HINDSIGHT_EMBED_THREADS (the
# engines' own counts: OpenMP, PyTorch, onnxruntime); the others are read by OpenBLAS, MKL and OpenMP as they load.
for name in ("HINDSIGHT_EMBED_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[name] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"  # the tokenizers' own pool (Rust, one thread a core)
try:
    import hindsight_pl
except ImportError as exc:
    return ("58P01", f"cannot import hindsight_pl from {path}: {exc}",
            "Run `make install` in the hindsight_pg source tree, or SET hindsight.python_path "
            "to the directory that holds hindsight_pl.")
expected = plpy.execute(
    "SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'hindsight_pg'"
)[0]["extversion"]
if hindsight_pl.__version__ != expected:
    return ("0A000",
            f"hindsight_pl {hindsight_pl.__version__} at {hindsight_pl.__file__} does not match "
            f"extension hindsight_pg {expected}",
            f"Install hindsight_pl {expected} (make install), or point hindsight.python_path at it.")
# long work calls hindsight_pl.limits.checkpoint() between native calls: a prepared empty SELECT, where
# PostgreSQL raises a pending cancel, statement timeout or termination (docs/reliability.md, Bounded work)
from hindsight_pl import limits

limits.set_checkpoint(lambda plan=plpy.prepare("SELECT"): plpy.execute(plan))
GD["hindsight_pl"] = hindsight_pl
return None, None, None
$$;
COMMENT ON FUNCTION hindsight._load() IS
    'Imports hindsight_pl from hindsight._python_path() into this session (cached in GD), installs its '
    'cancellation checkpoint and sets one native thread for this backend (HINDSIGHT_EMBED_THREADS, OMP_NUM_THREADS, '
    'OPENBLAS_NUM_THREADS, MKL_NUM_THREADS = 1, TOKENIZERS_PARALLELISM = false, whatever the server''s environment '
    'says). Returns NULLs, '
    'or the SQLSTATE, message and hint of why it cannot (58P01 not found, 0A000 version differs from the '
    'extension''s).';

CREATE OR REPLACE FUNCTION hindsight._require_python()
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    problem record;
BEGIN
    problem := hindsight._load();
    IF problem.sqlstate IS NOT NULL THEN
        RAISE EXCEPTION '%', problem.message USING ERRCODE = problem.sqlstate, HINT = problem.hint;
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._require_python() IS
    'Makes sure hindsight_pl is loaded in this session; raises 58P01 when it cannot be imported and 0A000 '
    'when its version differs from the extension''s, each with a hint.';

CREATE OR REPLACE FUNCTION hindsight._raise(sqlstate text, message text, hint text)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    message := regexp_replace(message, '^(plpy\.[A-Za-z]*Error|spiexceptions\.[A-Za-z]+): ', '');
    IF coalesce(hint, '') = '' THEN
        RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message;
    END IF;
    RAISE EXCEPTION USING ERRCODE = sqlstate, MESSAGE = message, HINT = hint;
END
$$;
COMMENT ON FUNCTION hindsight._raise(text, text, text) IS
    'Raises an error again without PL/Python''s exception class before its message (plpy.Error: ..., '
    'spiexceptions.InsufficientPrivilege: ...) and '
    'without its traceback: the public PL/pgSQL wrappers of PL/Python functions (hindsight.reflect, '
    'consolidate, embed, rerank, retain_text) catch an error and call this with its SQLSTATE, message and hint.';

-- ALTER EXTENSION hindsight_pg UPDATE in a session that has run the previous version's
-- PL/Python functions: the session still holds that version's hindsight_pl, and the plans
-- and models made with it, in GD (under keys starting with "hindsight") and sys.modules.
-- Forget them, so the session's next call imports this version's package. (Other sessions
-- open during the update keep the old package until they reconnect.)
DO LANGUAGE plpython3u $$
import os
import sys

old = GD.get("hindsight_pl")
for key in [k for k in GD if k.startswith("hindsight")]:
    del GD[key]
for name in [m for m in sys.modules if m == "hindsight_pl" or m.startswith("hindsight_pl.")]:
    del sys.modules[name]
if old is not None:
    folder = os.path.dirname(os.path.dirname(old.__file__))
    sys.path[:] = [p for p in sys.path if p != folder]
$$;
