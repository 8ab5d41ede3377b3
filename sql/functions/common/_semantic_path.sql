-- Exact or approximate nearest neighbours: which path a bank's vector searches take.
--
-- memory_units has one HNSW index over every bank (002-indexes.sql). A search for
-- one bank through it walks the shared graph and keeps the bank's units; pgvector's
-- iterative scan goes on until LIMIT rows are found, visiting about LIMIT / share
-- tuples, where share is the bank's fraction of all units. The exact path (the
-- primary key's bank_id prefix, then a top-N sort of the cosine distances) visits
-- the bank's own units, about 0.7 us each here. So a bank is searched through the
-- index only when it is both large (hnsw_min_units) and a large share of the table
-- (at least a tenth): measured here with 5,000 banks, a 2,000-unit bank (0.7 % of
-- 298,000 units) took 1.5 ms exact and 114-183 ms through the shared index, which
-- still returned only 116 of 300 rows (docs/benchmarks.md, bench/banks.py). And
-- below hnsw_min_units (5,000) a bank is scanned exactly even when it is the whole
-- table: 2,000 units took 2-4 ms exactly and 77-84 ms through the index at the
-- arm's ef_search of 300 (random vectors, the worst case for a graph).

CREATE OR REPLACE FUNCTION hindsight._semantic_path(bank_id text, config jsonb DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    -- the caller's copy of the bank's config (recall reads it once), else read here
    min_units bigint := (coalesce(config, hindsight.bank_config(_semantic_path.bank_id))->>'hnsw_min_units')::bigint;
    units bigint;
BEGIN
    -- the config first: on Citus a query on a distributed table may not call a function that reads one
    units := coalesce((SELECT b.unit_count FROM hindsight._bank_counts b WHERE b.bank_id = _semantic_path.bank_id), 0);
    RETURN CASE WHEN units >= min_units
                 AND units >= 0.1 * (SELECT greatest(c.reltuples, 1) FROM pg_catalog.pg_class c
                                     WHERE c.oid = 'hindsight.memory_units'::regclass)
                THEN 'hnsw' ELSE 'exact' END;
END
$$;
COMMENT ON FUNCTION hindsight._semantic_path(text, jsonb) IS
    'How the vector searches of a bank run: ''hnsw'' (the shared HNSW index, iterative scan) when the bank holds at '
    'least hnsw_min_units units and at least a tenth of all memory units (pg_class.reltuples), else ''exact'' (the '
    'bank''s units through the primary key, a top-N sort). config: the bank''s config when the caller has it '
    '(hindsight.bank_config), else it is read here (HS404 for an unknown bank).';
