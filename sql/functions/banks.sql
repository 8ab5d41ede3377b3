-- Banks and their configuration.

CREATE OR REPLACE FUNCTION hindsight._default_config()
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT '{
        "recall_budgets": {"low": 100, "mid": 300, "high": 1000},
        "rrf_k": 60,
        "hnsw_min_units": 5000,
        "text_search_config": "english"
    }'::jsonb
$$;
COMMENT ON FUNCTION hindsight._default_config() IS
    'Database-wide defaults that a bank''s config overrides key by key (recall_budgets merges per budget).';

CREATE OR REPLACE FUNCTION hindsight._check_config(config jsonb)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path FROM CURRENT
AS $$
DECLARE
    key text;
    allowed text[] := ARRAY(SELECT jsonb_object_keys(hindsight._default_config()) ORDER BY 1);
BEGIN
    IF config IS NULL THEN
        RETURN '{}'::jsonb;
    END IF;
    IF jsonb_typeof(config) <> 'object' THEN
        RAISE EXCEPTION 'bank config must be a JSON object, not %', jsonb_typeof(config)
            USING ERRCODE = '22023';
    END IF;
    FOR key IN SELECT jsonb_object_keys(config) LOOP
        IF NOT key = ANY (allowed) THEN
            RAISE EXCEPTION 'unknown bank config key "%"', key
                USING ERRCODE = '22023', HINT = format('Known keys: %s.', array_to_string(allowed, ', '));
        END IF;
    END LOOP;
    IF config ? 'recall_budgets' THEN
        IF jsonb_typeof(config->'recall_budgets') <> 'object' OR EXISTS (
            SELECT FROM jsonb_each(config->'recall_budgets') b
            WHERE b.key NOT IN ('low', 'mid', 'high') OR jsonb_typeof(b.value) <> 'number'
               OR (b.value)::numeric < 1 OR (b.value)::numeric > 10000
               OR (b.value)::numeric <> trunc((b.value)::numeric)) THEN
            RAISE EXCEPTION 'recall_budgets must map low, mid, high to integers in [1, 10000], got %',
                config->'recall_budgets' USING ERRCODE = '22023';
        END IF;
    END IF;
    IF config ? 'rrf_k' AND (jsonb_typeof(config->'rrf_k') <> 'number' OR (config->>'rrf_k')::numeric < 0) THEN
        RAISE EXCEPTION 'rrf_k must be a number >= 0, got %', config->'rrf_k' USING ERRCODE = '22023';
    END IF;
    IF config ? 'hnsw_min_units' AND (jsonb_typeof(config->'hnsw_min_units') <> 'number'
                                      OR (config->>'hnsw_min_units')::numeric < 1) THEN
        RAISE EXCEPTION 'hnsw_min_units must be an integer >= 1, got %', config->'hnsw_min_units'
            USING ERRCODE = '22023';
    END IF;
    IF config ? 'text_search_config' THEN
        BEGIN
            PERFORM (config->>'text_search_config')::regconfig;
        EXCEPTION WHEN undefined_object OR invalid_name OR syntax_error THEN
            RAISE EXCEPTION 'unknown text search configuration "%"', config->>'text_search_config'
                USING ERRCODE = '22023', HINT = 'See \dF in psql, e.g. english, simple, german.';
        END;
    END IF;
    RETURN config;
END
$$;
COMMENT ON FUNCTION hindsight._check_config(jsonb) IS
    'Validates a bank config (known keys, types, ranges) and returns it; raises 22023 naming the bad key.';

CREATE OR REPLACE FUNCTION hindsight.create_bank(
    bank_id text,
    name text DEFAULT NULL,
    config jsonb DEFAULT '{}'::jsonb,
    if_not_exists bool DEFAULT false
)
RETURNS text
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
BEGIN
    IF bank_id IS NULL OR btrim(bank_id) = '' OR length(bank_id) > 200 THEN
        RAISE EXCEPTION 'bank_id must be a non-blank string of at most 200 characters'
            USING ERRCODE = '22023';
    END IF;
    INSERT INTO hindsight.banks AS b (bank_id, name, config)
    VALUES (create_bank.bank_id, create_bank.name, hindsight._check_config(create_bank.config))
    ON CONFLICT ON CONSTRAINT banks_pkey DO NOTHING;
    IF NOT FOUND AND NOT if_not_exists THEN
        RAISE EXCEPTION 'bank "%" already exists', bank_id
            USING ERRCODE = '23505', HINT = 'Pass if_not_exists => true to reuse it.';
    END IF;
    RETURN bank_id;
END
$$;
COMMENT ON FUNCTION hindsight.create_bank(text, text, jsonb, bool) IS
    'Creates a memory bank and returns its id. config (a JSON object) overrides hindsight._default_config(); '
    'raises 23505 when the bank exists unless if_not_exists, 22023 on a bad id or config.';

CREATE OR REPLACE FUNCTION hindsight.delete_bank(bank_id text)
RETURNS bool
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
BEGIN
    PERFORM hindsight._drop_bank_index(bank_id);
    DELETE FROM hindsight.banks b WHERE b.bank_id = delete_bank.bank_id;
    RETURN FOUND;
END
$$;
COMMENT ON FUNCTION hindsight.delete_bank(text) IS
    'Deletes a bank with all its documents, chunks, memory units, entities and links, and its HNSW index. '
    'Returns false when there was no such bank.';

CREATE OR REPLACE FUNCTION hindsight.bank_config(bank_id text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
DECLARE
    own jsonb;
    defaults jsonb := hindsight._default_config();
BEGIN
    SELECT b.config INTO own FROM hindsight.banks b WHERE b.bank_id = bank_config.bank_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown bank "%"', bank_id
            USING ERRCODE = 'HS404', HINT = 'Create it first with hindsight.create_bank(bank_id => ...).';
    END IF;
    RETURN defaults || own
        || jsonb_build_object('recall_budgets',
                              (defaults->'recall_budgets') || coalesce(own->'recall_budgets', '{}'::jsonb));
END
$$;
COMMENT ON FUNCTION hindsight.bank_config(text) IS
    'The effective config of a bank (defaults overridden by its own keys). Raises HS404 for an unknown bank.';
