-- Reflect inside the database: the agent loop of hindsight_pl.reflect, with tools that read the
-- bank through SPI (hindsight.recall, the sources of memories, mental models). The driver's
-- Client.reflect runs the same loop over psycopg. docs/reflect.md.

CREATE OR REPLACE FUNCTION hindsight.memory_source(bank_id text, memory_id text)
RETURNS TABLE (id uuid, source text)
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
        SELECT u.id, coalesce(c.chunk_text, d.original_text, u.text)
        FROM hindsight.memory_units u
        LEFT JOIN hindsight.chunks c ON c.bank_id = u.bank_id AND c.chunk_id = u.chunk_id
        LEFT JOIN hindsight.documents d ON d.bank_id = u.bank_id AND d.document_id = u.document_id
        WHERE u.bank_id = memory_source.bank_id
          AND u.id = CASE WHEN memory_id ~* '^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' THEN memory_id::uuid END;
END
$$;
COMMENT ON FUNCTION hindsight.memory_source(text, text) IS
    'The text a memory unit came from, as one row (id uuid, source text): its chunk, else its document, else its '
    'own text (reflect''s expand tool). memory_id is a uuid as text; no row for any other text or an id that is '
    'not one of the bank''s memory units (an unknown bank too); row-level security limits it to banks the caller '
    'may read. Raises nothing of its own.';

CREATE OR REPLACE FUNCTION hindsight.nearest_mental_models(bank_id text, query_embedding vector, k int DEFAULT 5)
RETURNS TABLE (id uuid, name text, content text)
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
        SELECT m.id, m.name, m.content
        FROM hindsight.mental_models m
        WHERE m.bank_id = nearest_mental_models.bank_id AND m.embedding IS NOT NULL
        ORDER BY m.embedding <=> query_embedding, m.name
        LIMIT k;
END
$$;
COMMENT ON FUNCTION hindsight.nearest_mental_models(text, vector, int) IS
    'The bank''s k (default 5) refreshed mental models nearest query_embedding by cosine distance, ties by name, '
    'as rows (id uuid, name text, content text): reflect''s search_mental_models tool. query_embedding has the '
    'dimension of the bank''s embedding_model (pgvector raises 22000 for another); none for an unknown bank or '
    'one without refreshed mental models.';

CREATE OR REPLACE FUNCTION hindsight._check_llm_endpoint(base_url text)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
BEGIN
    IF hindsight._is_superuser(hindsight._invoker()) OR EXISTS (
        SELECT FROM jsonb_array_elements_text(hindsight._setting('llm_endpoints')->'base_urls') allowed
        WHERE rtrim(allowed, '/') = rtrim(base_url, '/')) THEN
        RETURN;
    END IF;
    RAISE EXCEPTION 'the database may not call the language model at %', base_url
        USING ERRCODE = '42501',
              HINT = 'In-database language model calls run as the server''s operating-system user: a superuser '
                     'allows the endpoint with SELECT hindsight.set_setting(''llm_endpoints'', '
                     '''{"base_urls": ["' || base_url || '"]}'') (docs/reflect.md). Or call the model from the '
                     'driver (client.reflect, client.consolidate), or consolidate offline with use_llm => false.';
END
$$;
COMMENT ON FUNCTION hindsight._check_llm_endpoint(text) IS
    'Raises 42501 unless the database may call the language model at base_url: a superuser may call any; other '
    'roles only the base URLs of the setting llm_endpoints (compared without a trailing slash). Every in-database '
    'model call runs it before its first request (hindsight_pl.llm.in_database).';

CREATE OR REPLACE FUNCTION hindsight._reflect(
    bank_id text,
    query text,
    budget text DEFAULT 'low',
    max_tokens int DEFAULT 4096,
    tags text[] DEFAULT NULL,
    tags_match text DEFAULT 'any',
    response_schema jsonb DEFAULT NULL,
    query_timestamp timestamptz DEFAULT NULL
)
RETURNS TABLE (answer text, structured_answer jsonb, based_on jsonb, usage jsonb, trace jsonb)
LANGUAGE plpython3u
SET citus.allow_nested_distributed_execution = on
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl.pipeline import in_database
return in_database.reflect(plpy, GD, bank_id, query, budget, max_tokens, tags, tags_match, response_schema,
                           query_timestamp)
$$;
COMMENT ON FUNCTION hindsight._reflect(text, text, text, int, text[], text, jsonb, timestamptz) IS
    'The PL/Python body of hindsight.reflect (which see); hindsight.reflect raises its errors without PL/Python''s '
    'exception class and traceback.';

CREATE OR REPLACE FUNCTION hindsight.reflect(
    bank_id text,
    query text,
    budget text DEFAULT 'low',
    max_tokens int DEFAULT 4096,
    tags text[] DEFAULT NULL,
    tags_match text DEFAULT 'any',
    response_schema jsonb DEFAULT NULL,
    query_timestamp timestamptz DEFAULT NULL
)
RETURNS TABLE (answer text, structured_answer jsonb, based_on jsonb, usage jsonb, trace jsonb)
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank, before any Python runs
    RETURN QUERY SELECT * FROM hindsight._reflect(bank_id, query, budget, max_tokens, tags, tags_match,
                                                  response_schema, query_timestamp);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight.reflect(text, text, text, int, text[], text, jsonb, timestamptz) IS
$$Answers query from the bank's memory with its language model (config llm_base_url, llm_model; the API key from
the server's environment variable llm_api_key_env names), in the bank's disposition and directives: the agent
loop of hindsight_pl.reflect (the driver's Client.reflect runs the same one) over the tools recall (hindsight.recall
with budget, max_tokens, tags, tags_match, query_timestamp, prefer_observations; embeddings by the bank's provider), search_observations,
search_mental_models, expand and done; 5 / 10 / 20 model calls for budget low / mid / high, the last forcing an
answer. One row: answer (Markdown; with response_schema, the JSON text of the answer), structured_answer (the
answer validated against response_schema, a JSON schema; NULL without one), based_on (jsonb array of the cited
memories a tool returned: id, text, fact_type, date), usage (one {purpose, model, prompt_tokens,
completion_tokens} per model call) and trace (the tool calls: tool, arguments, results). Roles other than
superusers may only call base URLs of the setting llm_endpoints (42501). Errors: HS404 unknown bank, 22023 no
language model (the hint says how to configure one), bad budget, blank query or bad response_schema, 42501 an
endpoint not allowed, HS503 the model failed or broke the schema, HS502 the embedding provider failed.
docs/reflect.md.$$;

CREATE OR REPLACE FUNCTION hindsight.create_mental_model(
    bank_id text,
    name text,
    source_query text,
    tags text[] DEFAULT '{}',
    max_tokens int DEFAULT 2048
)
RETURNS hindsight.mental_models
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    made hindsight.mental_models;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank
    IF coalesce(btrim(name), '') = '' OR coalesce(btrim(source_query), '') = '' THEN
        RAISE EXCEPTION 'a mental model needs a name and a source query' USING ERRCODE = '22023';
    END IF;
    IF max_tokens IS NULL OR max_tokens < 1 THEN
        RAISE EXCEPTION 'max_tokens must be a positive integer, got %', coalesce(max_tokens::text, 'NULL')
            USING ERRCODE = '22023';
    END IF;
    PERFORM hindsight._check_limit('query_chars', 'source_query', length(source_query));
    PERFORM hindsight._check_limit('name_chars', 'name', length(name));
    PERFORM hindsight._check_limit('tags', 'tags', cardinality(tags));
    PERFORM hindsight._check_limit('name_chars', 'a tag', (SELECT max(length(t)) FROM unnest(tags) t));
    INSERT INTO hindsight.mental_models AS m (bank_id, name, source_query, tags, max_tokens)
    VALUES (create_mental_model.bank_id, create_mental_model.name, create_mental_model.source_query,
            coalesce(create_mental_model.tags, '{}'), create_mental_model.max_tokens)
    RETURNING m.* INTO made;
    RETURN made;
EXCEPTION WHEN unique_violation THEN
    RAISE EXCEPTION 'bank "%" already has a mental model named "%"', bank_id, name
        USING ERRCODE = '22023', HINT = 'Refresh it (hindsight.refresh_mental_model), or delete it first.';
END
$$;
COMMENT ON FUNCTION hindsight.create_mental_model(text, text, text, text[], int) IS
    'Creates a mental model: a named summary that hindsight.refresh_mental_model writes by reflecting on '
    'source_query (with tags and max_tokens, in reflect''s tokens). Returns its hindsight.mental_models row, without '
    'content until its first refresh. Errors: HS404 unknown bank; 22023 a blank name or query, max_tokens '
    'below 1, or a name the bank already has; 54000 a query over query_chars or a name or tag over name_chars; '
    'row-level security: the caller needs write on the bank. docs/reflect.md.';

CREATE OR REPLACE FUNCTION hindsight.delete_mental_model(bank_id text, name text)
RETURNS bool
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    gone int;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank
    DELETE FROM hindsight.mental_models m
    WHERE m.bank_id = delete_mental_model.bank_id AND m.name = delete_mental_model.name;
    GET DIAGNOSTICS gone = ROW_COUNT;
    RETURN gone > 0;
END
$$;
COMMENT ON FUNCTION hindsight.delete_mental_model(text, text) IS
    'Deletes the bank''s mental model of that name: true, or false when it has none (or the caller may not '
    'write the bank: row-level security). Errors: HS404 unknown bank. docs/reflect.md.';

CREATE OR REPLACE FUNCTION hindsight.store_mental_model(
    bank_id text,
    name text,
    content text,
    embedding vector,
    based_on uuid[]
)
RETURNS hindsight.mental_models
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    stored hindsight.mental_models;
    earlier jsonb;
BEGIN
    -- the history first, then an UPDATE of constants: on Citus an UPDATE may not pass columns to
    -- STABLE functions (jsonb_build_object); the row lock keeps concurrent refreshes in order
    SELECT CASE WHEN m.content IS NULL OR m.last_refreshed_at IS NULL THEN m.history
                ELSE m.history || jsonb_build_array(jsonb_build_object(
                         'content', m.content, 'refreshed_at', m.last_refreshed_at)) END
    INTO earlier
    FROM hindsight.mental_models m
    WHERE m.bank_id = store_mental_model.bank_id AND m.name = store_mental_model.name
    FOR UPDATE;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    UPDATE hindsight.mental_models m
    SET content = store_mental_model.content,
        embedding = store_mental_model.embedding,
        based_on = coalesce(store_mental_model.based_on, '{}'),
        last_refreshed_at = now(),
        history = earlier
    WHERE m.bank_id = store_mental_model.bank_id AND m.name = store_mental_model.name
    RETURNING m.* INTO stored;
    RETURN stored;
END
$$;
COMMENT ON FUNCTION hindsight.store_mental_model(text, text, text, vector, uuid[]) IS
    'Stores a mental model''s refreshed content with its embedding (the dimension of the bank''s '
    'embedding_model) and the memory unit ids it rests on (based_on, NULL as none), stamps last_refreshed_at '
    'and appends the previous content ({content, refreshed_at}) to history. Returns the stored '
    'hindsight.mental_models row, NULL when the bank has no mental model of that name (row-level security: '
    'the caller needs write on the bank). Used by hindsight.refresh_mental_model and the driver''s '
    'refresh_mental_model.';

CREATE OR REPLACE FUNCTION hindsight._refresh_mental_model(bank_id text, name text)
RETURNS void
LANGUAGE plpython3u
SET citus.allow_nested_distributed_execution = on
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl.pipeline import in_database
in_database.refresh_mental_model(plpy, GD, bank_id, name)
$$;
COMMENT ON FUNCTION hindsight._refresh_mental_model(text, text) IS
    'The PL/Python body of hindsight.refresh_mental_model (which see): hindsight_pl.pipeline.reflect.'
    'refresh_mental_model, the driver''s code.';

CREATE OR REPLACE FUNCTION hindsight.refresh_mental_model(bank_id text, name text)
RETURNS hindsight.mental_models
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    model hindsight.mental_models;
    state text;
    message text;
    hint text;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank, before any Python runs
    PERFORM hindsight._refresh_mental_model(bank_id, name);
    SELECT m.* INTO model FROM hindsight.mental_models m
    WHERE m.bank_id = refresh_mental_model.bank_id AND m.name = refresh_mental_model.name;
    RETURN model;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight.refresh_mental_model(text, text) IS
$$Refreshes a mental model (a row of hindsight.mental_models, made by hindsight.create_mental_model): answers its source_query with
hindsight.reflect (its tags and max_tokens, budget low), stores the answer as content with its embedding (the
bank's embedding provider) and the ids of the memories it rests on, and keeps the previous content in history.
Returns the updated row. Errors: HS404 unknown bank, 22023 no mental model of that name, and those of
hindsight.reflect (22023 no language model, 42501 an endpoint not allowed, HS503 the model failed). docs/reflect.md.$$;
