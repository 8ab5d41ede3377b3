-- Scale-out with Citus: every bank-keyed table distributed by bank_id, colocated.

CREATE OR REPLACE FUNCTION hindsight._is_distributed(rel text)
RETURNS bool
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
BEGIN
    -- pg_dist_partition exists only with Citus: without it nothing is distributed (the query below is
    -- planned only when reached)
    IF to_regclass('pg_catalog.pg_dist_partition') IS NULL THEN
        RETURN false;
    END IF;
    RETURN EXISTS (SELECT FROM pg_catalog.pg_dist_partition p WHERE p.logicalrelid = rel::regclass);
END
$$;
COMMENT ON FUNCTION hindsight._is_distributed(text) IS
    'Whether Citus distributes the table rel (hash or reference); false without Citus.';

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
        'hindsight.recall(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool, float8, int)',
        'hindsight.recall_json(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], text, bool, int, bool, float8, int, jsonb)',
        'hindsight.recall_candidates(text, text, vector, text, int, text[], text[], text, timestamptz, bool, tstzrange, text, int, text[], jsonb)',
        'hindsight.retain(text, jsonb, jsonb)',
        'hindsight.retain_text(text, text, text, timestamptz, text, text[], jsonb, text[], text, text)',
        'hindsight._group_observations(text)',
        'hindsight.bank_config(text)'];
    -- the tables whose triggers write derived rows (statistics, counts, links): off while their rows are
    -- copied into the shards, whose derived rows are copied as they are
    writing_triggers text[] := ARRAY['memory_units', 'unit_entities', 'observation_sources'];
    t text;
    f text;
    quiet text[] := '{}';
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
    -- The triggers (sql/functions/common/_derived.sql) keep to the bank's colocated shards, which is
    -- what Citus allows a trigger; it distributes a table with triggers only when told so.
    PERFORM set_config('citus.enable_unsafe_triggers', 'on', true);
    -- A database with banks: create_distributed_table copies each table's rows into its shards, and
    -- the copy into memory_units' shards would fire the triggers there, which count the rows again
    -- (into _bank_counts, not distributed yet: a foreign key error on the worker). The derived rows
    -- are exact already and are copied as they are; the triggers are off until every table is done.
    FOREACH t IN ARRAY writing_triggers LOOP
        IF NOT hindsight._is_distributed('hindsight.' || t) THEN
            EXECUTE format('ALTER TABLE %I.%I DISABLE TRIGGER USER', 'hindsight', t);
            quiet := quiet || t;
        END IF;
    END LOOP;
    -- Every table is distributed by bank_id and colocated with banks, so a bank's
    -- rows, its statistics and its links live on one worker and every join of the
    -- pipeline (which always equates bank_id) stays on that worker. A table distributed
    -- already (a second call, or one after ALTER EXTENSION UPDATE) is left as it is.
    FOREACH t IN ARRAY tables LOOP
        CONTINUE WHEN hindsight._is_distributed('hindsight.' || t);
        IF t = 'banks' THEN
            EXECUTE format('SELECT create_distributed_table(%L, %L, shard_count => %s)',
                           'hindsight.banks', 'bank_id', shard_count);
        ELSE
            EXECUTE format('SELECT create_distributed_table(%L, %L, colocate_with => %L)',
                           'hindsight.' || t, 'bank_id', 'hindsight.banks');
        END IF;
        done := done || ('hindsight.' || t);
    END LOOP;
    FOREACH t IN ARRAY quiet LOOP  -- Citus passes this on to every shard
        EXECUTE format('ALTER TABLE %I.%I ENABLE TRIGGER USER', 'hindsight', t);
    END LOOP;
    -- The database-wide settings are read everywhere: a reference table, copied to every worker.
    IF NOT hindsight._is_distributed('hindsight.settings') THEN
        PERFORM create_reference_table('hindsight.settings');
        done := done || 'hindsight.settings'::text;
    END IF;
    -- The rows copied into the shards stay behind in the coordinator's own tables, unread; remove them.
    FOREACH t IN ARRAY tables || 'settings'::text LOOP
        IF ('hindsight.' || t) = ANY (done) THEN
            PERFORM truncate_local_data_after_distributing_table(('hindsight.' || t)::regclass);
        END IF;
    END LOOP;
    -- A call with a bank id runs on the worker that holds the bank; a function distributed
    -- already is left, one that an update created again (recall in 0.3.0) is distributed.
    FOREACH f IN ARRAY functions LOOP
        CONTINUE WHEN EXISTS (SELECT FROM pg_catalog.pg_dist_object d
                              WHERE d.classid = 'pg_catalog.pg_proc'::regclass AND d.objid = f::regprocedure
                                AND d.distribution_argument_index IS NOT NULL);
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
