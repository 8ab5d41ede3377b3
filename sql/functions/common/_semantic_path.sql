-- Exact or approximate nearest neighbours: which path a bank's vector searches take.
--
-- memory_units has one HNSW index over every bank (002-indexes.sql). A search for
-- one bank through it walks the shared graph and keeps the bank's units; pgvector's
-- iterative scan goes on until LIMIT rows are found, visiting about LIMIT / share
-- tuples, where share is the bank's fraction of all units, at about 8 times the cost
-- of a unit of the exact path (7.5 us a tuple for a 10,000-unit bank at 5 % of the
-- table, 6-9 us for a 2,000-unit bank at 0.7 %). The exact path (the primary key's
-- bank_id prefix, then a top-N sort of the cosine distances) reads the bank's own
-- units, about 0.7-1 us each. So a bank is searched through the index when it is
-- large (hnsw_min_units) and either a large share of the table (at least a tenth) or
-- large enough that the exact scan costs more: units > 8 * LIMIT / share, that is
-- units * share >= 8 * the mid recall budget (2,400 at 300; a 100,000-unit bank among
-- a million units: 145 ms a recall exactly, 95 through the index). Measured here
-- with 5,000 banks, a 2,000-unit bank (0.7 % of 298,000 units) took 1.5 ms exact and
-- 114-183 ms through the shared index, which still returned only 116 of 300 rows
-- (docs/benchmarks.md, bench/many_banks.py). And below hnsw_min_units (5,000) a bank
-- is scanned exactly even when it is the whole table: 2,000 units took 2-4 ms exactly
-- and 77-84 ms through the index at the arm's ef_search of 300 (random vectors, the
-- worst case for a graph).

CREATE OR REPLACE FUNCTION hindsight._semantic_path(bank_id text, config jsonb DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    -- the caller's copy of the bank's config (recall reads it once), else read here
    cfg jsonb := coalesce(config, hindsight.bank_config(_semantic_path.bank_id));
    min_units bigint := (cfg->>'hnsw_min_units')::bigint;
    limit_rows float8 := (cfg->'recall_budgets'->>'mid')::float8;
    units bigint;
    share float8;
BEGIN
    -- the config first: on Citus a query on a distributed table may not call a function that reads one
    units := coalesce((SELECT b.unit_count FROM hindsight._bank_counts b WHERE b.bank_id = _semantic_path.bank_id), 0);
    share := units / (SELECT greatest(c.reltuples, 1) FROM pg_catalog.pg_class c
                      WHERE c.oid = 'hindsight.memory_units'::regclass)::float8;
    RETURN CASE WHEN units >= min_units AND (share >= 0.1 OR units * share >= 8 * limit_rows)
                THEN 'hnsw' ELSE 'exact' END;
END
$$;
COMMENT ON FUNCTION hindsight._semantic_path(text, jsonb) IS
    'How the vector searches of a bank run: ''hnsw'' (the shared HNSW index, iterative scan) when the bank holds at '
    'least hnsw_min_units units and either at least a tenth of all memory units (pg_class.reltuples) or so many '
    'that units * share >= 8 * its mid recall budget (an index scan visits about LIMIT / share tuples at about 8 '
    'times an exact scan''s cost a unit), else ''exact'' (the bank''s units through the primary key, a top-N sort). '
    'config: the bank''s config when the caller has it (hindsight.bank_config), else it is read here (HS404 for an '
    'unknown bank).';

CREATE OR REPLACE FUNCTION hindsight._plain_ef_search(bank_id text, recall_budget int)
RETURNS int
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    share float8;
BEGIN
    share := least(coalesce((SELECT b.unit_count / greatest(c.reltuples, 1)
                             FROM hindsight._bank_counts b, pg_catalog.pg_class c
                             WHERE b.bank_id = _plain_ef_search.bank_id
                               AND c.oid = 'hindsight.memory_units'::regclass), 0), 1.0);
    -- ef_search's ceiling is 1,000 (pgvector); a bank with no count yet has no plain scan
    RETURN CASE WHEN ceil(recall_budget / nullif(share, 0)) <= 1000 THEN ceil(recall_budget / share)::int END;
END
$$;
COMMENT ON FUNCTION hindsight._plain_ef_search(text, int) IS
    'The hnsw.ef_search of the semantic arm''s plain scan of the shared HNSW index for a bank: ceil(recall_budget / '
    'share), share = the bank''s units / all memory units (pg_class.reltuples, at most 1), so that the scan''s '
    'candidates hold about recall_budget of the bank''s units; NULL when that is over 1,000 (pgvector''s ceiling: at '
    'the mid budget of 300, a bank under 30 % of the table), and the arm scans iteratively.';
