-- Loading the in-database Python package hindsight_pl.
--
-- Every PL/Python function starts with
--     hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._load()") and GD["hindsight_pl"]
-- so the package is imported once per session and its version checked once.

CREATE OR REPLACE FUNCTION hindsight._python_path()
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT coalesce(nullif(pg_catalog.current_setting('hindsight.python_path', true), ''),
                    '@PYTHON_LIB_DIR@')
$$;
COMMENT ON FUNCTION hindsight._python_path() IS
    'Directory holding the hindsight_pl package and its dependencies: the GUC hindsight.python_path, '
    'else the directory chosen at build time.';

CREATE OR REPLACE FUNCTION hindsight._load()
RETURNS text
LANGUAGE plpython3u
AS $$
import sys

path = plpy.execute("SELECT hindsight._python_path() AS p")[0]["p"]
if path not in sys.path:
    sys.path.insert(0, path)
try:
    import hindsight_pl
except ImportError as exc:
    plpy.error(
        f"cannot import hindsight_pl from {path}: {exc}",
        hint="Run `make install` in the hindsight_pg source tree, or SET hindsight.python_path "
             "to the directory that holds hindsight_pl.",
        sqlstate="58P01",
    )
expected = plpy.execute(
    "SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'hindsight_pg'"
)[0]["extversion"]
if hindsight_pl.__version__ != expected:
    plpy.error(
        f"hindsight_pl {hindsight_pl.__version__} at {hindsight_pl.__file__} does not match "
        f"extension hindsight_pg {expected}",
        hint=f"Install hindsight_pl {expected} (make install), or point hindsight.python_path at it.",
        sqlstate="0A000",
    )
GD["hindsight_pl"] = hindsight_pl
return hindsight_pl.__version__
$$;
COMMENT ON FUNCTION hindsight._load() IS
    'Imports hindsight_pl from hindsight._python_path() into this session (cached in GD) and '
    'raises 0A000 when its version differs from the installed extension version.';
