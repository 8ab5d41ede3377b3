-- Scale-out with Citus: every bank-keyed table distributed by bank_id, colocated.

CREATE OR REPLACE FUNCTION hindsight.distribute(shard_count int DEFAULT 32)
RETURNS text[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    tables text[] := ARRAY['banks', 'bank_members', 'documents', 'chunks', 'memory_units', 'entities',
                           'unit_entities', 'memory_links', '_bank_counts', '_bm25_terms', '_bm25_postings',
                           '_entity_cooccurrences', 'observation_sources', 'mental_models'];
    functions text[] := ARRAY[
        'hindsight.recall(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool)',
        'hindsight.recall_json(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool, int, bool)',
        'hindsight.recall_candidates(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[])',
        'hindsight.retain(text, jsonb)',
        'hindsight.retain_text(text, text, text, timestamptz, text, text[], jsonb, text[], text, text)',
        'hindsight._group_observations(text)',
        'hindsight.bank_config(text)'];
    t text;
    f text;
    done text[] := '{}';
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname = 'citus') THEN
        RAISE EXCEPTION 'the citus extension is not installed in this database'
            USING ERRCODE = '0A000',
                  HINT = 'On a Citus coordinator: CREATE EXTENSION citus; then SELECT hindsight.distribute(). '
                         'See docs/scale-out.md.';
    END IF;
    IF shard_count IS NULL OR shard_count < 1 THEN
        RAISE EXCEPTION 'shard_count must be >= 1, got %', shard_count USING ERRCODE = '22023';
    END IF;
    -- The triggers (sql/functions/_derived.sql) keep to the bank's colocated shards, which is
    -- what Citus allows a trigger; it distributes a table with triggers only when told so.
    PERFORM set_config('citus.enable_unsafe_triggers', 'on', true);
    -- Every table is distributed by bank_id and colocated with banks, so a bank's
    -- rows, its statistics and its links live on one worker and every join of the
    -- pipeline (which always equates bank_id) stays on that worker.
    FOREACH t IN ARRAY tables LOOP
        IF t = 'banks' THEN
            EXECUTE format('SELECT create_distributed_table(%L, %L, shard_count => %s)',
                           'hindsight.banks', 'bank_id', shard_count);
        ELSE
            EXECUTE format('SELECT create_distributed_table(%L, %L, colocate_with => %L)',
                           'hindsight.' || t, 'bank_id', 'hindsight.banks');
        END IF;
        done := done || ('hindsight.' || t);
    END LOOP;
    -- The database-wide settings are read everywhere: a reference table, copied to every worker.
    PERFORM create_reference_table('hindsight.settings');
    done := done || 'hindsight.settings'::text;
    -- A call with a bank id runs on the worker that holds the bank.
    FOREACH f IN ARRAY functions LOOP
        EXECUTE format('SELECT create_distributed_function(%L, %L, colocate_with => %L)',
                       f, '$1', 'hindsight.banks');
        done := done || f;
    END LOOP;
    RETURN done;
END
$$;
COMMENT ON FUNCTION hindsight.distribute(int) IS
    'On a Citus coordinator: distributes every bank-keyed table by bank_id (shard_count shards, colocated with '
    'banks), makes hindsight.settings a reference table, and distributes recall, recall_json, recall_candidates, '
    'retain, retain_text, consolidate''s offline pass (_group_observations) and bank_config by their bank_id argument, '
    'so one call runs on the worker holding the bank '
    '(in-database models then load on the workers: docs/providers.md). Sets citus.enable_unsafe_triggers for its own '
    'transaction: the extension''s triggers reach only the bank''s colocated shards. Returns what it distributed. '
    'Raises 0A000 when Citus is not installed. See docs/scale-out.md.';
