-- Per-bank HNSW indexes.
--
-- A bank below hnsw_min_units units is searched exactly (b-tree on bank_id, then
-- a top-N sort of the cosine distances: 2.4 ms for 1,000 units here). A larger
-- bank gets its own partial HNSW index `WHERE bank_id = '<bank>'`, so its
-- neighbours never compete with other banks' units and a LIMIT is always filled.
-- The semantic arm of recall plans its query with the bank id as a constant,
-- which lets the planner prove the partial index applies.

CREATE OR REPLACE FUNCTION hindsight._bank_index_name(bank_id text)
RETURNS name
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT ('memory_units_hnsw_' || left(pg_catalog.md5(bank_id), 16))::name
$$;
COMMENT ON FUNCTION hindsight._bank_index_name(text) IS
    'Name of the partial HNSW index of a bank: memory_units_hnsw_ + 16 hex digits of md5(bank_id).';

CREATE OR REPLACE FUNCTION hindsight._drop_bank_index(bank_id text)
RETURNS void
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- only the index of a bank that no longer exists (delete_bank calls this after deleting it)
    IF to_regclass(format('hindsight.%I', hindsight._bank_index_name(bank_id))) IS NOT NULL
       AND NOT EXISTS (SELECT FROM hindsight.banks b WHERE b.bank_id = _drop_bank_index.bank_id) THEN
        EXECUTE format('DROP INDEX hindsight.%I', hindsight._bank_index_name(bank_id));
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._drop_bank_index(text) IS
    'Drops the partial HNSW index of a bank that no longer exists (runs as the extension owner).';

CREATE OR REPLACE FUNCTION hindsight.index_bank(
    bank_id text,
    force bool DEFAULT false
)
RETURNS text
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    index_name name := hindsight._bank_index_name(bank_id);
    min_units int := (hindsight.bank_config(bank_id)->>'hnsw_min_units')::int;
    vector_schema name;
BEGIN
    -- This runs as the extension owner, who sees every bank: act only for a caller
    -- who may write the bank.
    IF NOT hindsight._is_superuser(hindsight._invoker())
       AND NOT bank_id = ANY (hindsight._banks_for(hindsight._invoker(), 'write')) THEN
        RAISE EXCEPTION 'unknown bank "%"', bank_id
            USING ERRCODE = 'HS404', HINT = 'Create it first with hindsight.create_bank(bank_id => ...).';
    END IF;
    IF to_regclass(format('hindsight.%I', index_name)) IS NOT NULL THEN
        RETURN index_name;
    END IF;
    IF NOT force AND (SELECT count(*) FROM (
            SELECT 1 FROM hindsight.memory_units u
            WHERE u.bank_id = index_bank.bank_id LIMIT min_units) s) < min_units THEN
        RETURN NULL;
    END IF;
    SELECT n.nspname INTO vector_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'vector';
    EXECUTE format(
        'CREATE INDEX %I ON hindsight.memory_units USING hnsw (embedding %I.vector_cosine_ops) WHERE bank_id = %L',
        index_name, vector_schema, bank_id);
    RETURN index_name;
END
$$;
COMMENT ON FUNCTION hindsight.index_bank(text, bool) IS
    'Gives a bank its own partial HNSW index (vector_cosine_ops, WHERE bank_id = the bank) once it holds '
    'hnsw_min_units units (default 1000), or at once with force. Returns the index name, or NULL while the '
    'bank is still searched exactly. Called by retain; runs as the extension owner. Raises HS404 for an unknown bank.';
