-- Banks and their configuration.

CREATE OR REPLACE FUNCTION hindsight._default_config()
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT '{
        "recall_budgets": {"low": 100, "mid": 300, "high": 1000},
        "budget_function": "fixed",
        "adaptive_ratios": {"low": 0.025, "mid": 0.075, "high": 0.25},
        "adaptive_min": 20,
        "adaptive_max": 2000,
        "rrf_k": 60,
        "passthrough_weights": {"rrf": 0.5, "semantic": 0.25, "keyword": 0.25, "temporal": 0.25},
        "arm_weights": {"semantic": 1.0, "keyword": 1.0, "graph": 0.25, "temporal": 1.0},
        "strategy_boosts": {},
        "reranker_max_candidates": 300,
        "reranker_candidates": {"low": 5, "mid": 10, "high": 30},
        "reranker_weight": 0.7,
        "graph_seed_limit": 20,
        "graph_seed_min_similarity": 0.79,
        "graph_entity_fanout": 200,
        "graph_hop_entity_rows": 2000,
        "graph_common_entity_share": 0.1,
        "graph_common_entity_min_units": 20,
        "graph_semantic_floor": 0.79,
        "graph_max_hops": 2,
        "graph_hop_decay": 0.5,
        "temporal_pool_size": 60,
        "temporal_scan_budget": 1000,
        "temporal_min_similarity": 0.74,
        "temporal_buckets": 8,
        "temporal_entry_points": 10,
        "temporal_max_rounds": 5,
        "temporal_links_per_node": 10,
        "temporal_min_link_weight": 0.1,
        "temporal_decay": 0.7,
        "temporal_spread_threshold": 0.2,
        "temporal_no_date_score": 0.3,
        "temporal_link_boosts": {"temporal": 1.0, "causes": 2.0, "caused_by": 2.0, "enables": 1.5, "prevents": 1.5},
        "recency_function": "linear",
        "recency_horizon_days": 365,
        "recency_half_life_days": 90,
        "recency_alpha": 0.1,
        "temporal_alpha": 0.2,
        "window_first": true,
        "window_reach": 30,
        "proof_alpha": 0.1,
        "hnsw_min_units": 5000,
        "embedding_model": "multilingual-e5-small",
        "text_search_config": "english",
        "keyword_backend": "bm25",
        "bm25_k1": 1.2,
        "bm25_b": 0.0,
        "bm25_max_terms": 16,
        "time_zone": "UTC",
        "hemisphere": "north",
        "extractor": "offline",
        "agent_name": "assistant",
        "llm_base_url": "",
        "llm_model": "",
        "llm_api_key_env": "OPENAI_API_KEY",
        "dedupe_similarity": 0.978,
        "entity_merge_threshold": 0.6,
        "temporal_link_neighbours": 20,
        "semantic_link_top_k": 50,
        "semantic_link_min_similarity": 0.91,
        "update_candidates": 3,
        "update_min_similarity": 0.85,
        "update_min_confidence": 0.5,
        "update_move_confidence": 0.5,
        "update_reach": 30,
        "updates_win": "confident",
        "observation_similarity": 0.94,
        "observation_merge_similarity": 0.985,
        "disposition": {"skepticism": 3, "literalism": 3, "empathy": 3},
        "directives": []
    }'::jsonb
$$;
COMMENT ON FUNCTION hindsight._default_config() IS
    'Database-wide defaults that a bank''s config overrides key by key (object values merge per key). '
    'See docs/recall.md for what each key does.';

CREATE OR REPLACE FUNCTION hindsight._check_config(config jsonb)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
DECLARE
    defaults jsonb := hindsight._default_config();
    config_key text;
    config_value jsonb;
    expected text;
    bad text;
    integer_keys text[] := ARRAY['adaptive_min', 'adaptive_max', 'reranker_max_candidates', 'graph_seed_limit',
        'graph_entity_fanout', 'graph_hop_entity_rows', 'graph_max_hops', 'temporal_pool_size', 'temporal_scan_budget',
        'temporal_buckets', 'temporal_entry_points', 'temporal_max_rounds', 'temporal_links_per_node', 'hnsw_min_units',
        'bm25_max_terms', 'window_reach', 'update_reach'];
    count_keys text[] := ARRAY['temporal_link_neighbours', 'semantic_link_top_k', 'update_candidates'];  -- 0: off
BEGIN
    IF config IS NULL THEN
        RETURN '{}'::jsonb;
    END IF;
    PERFORM hindsight._check_json_limits(config, 'config');  -- 54000 past json_bytes or json_depth
    IF jsonb_typeof(config) <> 'object' THEN
        RAISE EXCEPTION 'bank config must be a JSON object, not %', jsonb_typeof(config)
            USING ERRCODE = '22023';
    END IF;
    FOR config_key, config_value IN SELECT * FROM jsonb_each(config) LOOP
        IF config_key IN ('embedding_provider', 'reranker_provider') THEN
            -- in-database providers load models and call URLs as the server's operating-system user; turning
            -- the bank's reader off ({"kind": "none"}) runs nothing, and anyone who may configure the bank may
            IF NOT hindsight._is_superuser(hindsight._invoker())
               AND NOT (config_key = 'reranker_provider' AND config_value = '{"kind": "none"}') THEN
                RAISE EXCEPTION 'only a superuser may set a bank''s %', config_key
                    USING ERRCODE = '42501', HINT = 'Without it the bank uses the database-wide setting (docs/providers.md).';
            END IF;
            PERFORM hindsight._check_provider(config_value, replace(config_key, '_provider', ''));
            CONTINUE;
        END IF;
        IF NOT defaults ? config_key THEN
            RAISE EXCEPTION 'unknown bank config key "%"', config_key
                USING ERRCODE = '22023', HINT = format('Known keys: %s.',
                    (SELECT string_agg(k, ', ' ORDER BY k) FROM jsonb_object_keys(defaults) k));
        END IF;
        expected := jsonb_typeof(defaults->config_key);
        IF jsonb_typeof(config_value) <> expected THEN
            RAISE EXCEPTION 'bank config "%" must be a JSON %, got %', config_key, expected, config_value
                USING ERRCODE = '22023';
        END IF;
        IF expected = 'number' AND (config_value::text::numeric < 0
                OR (config_key = ANY (integer_keys) AND (config_value::text::numeric < 1
                    OR config_value::text::numeric <> trunc(config_value::text::numeric)))) THEN
            RAISE EXCEPTION 'bank config "%" must be %, got %', config_key,
                CASE WHEN config_key = ANY (integer_keys) THEN 'an integer >= 1'
                     WHEN config_key = 'reranker_weight' THEN 'a number in [0, 1]' ELSE 'a number >= 0' END, config_value
                USING ERRCODE = '22023';
        END IF;
        IF config_key = 'reranker_max_candidates' THEN  -- what one rerank call takes (hindsight.limits())
            PERFORM hindsight._check_limit('rerank_texts', 'bank config "reranker_max_candidates"',
                                           ceil(config_value::text::numeric)::bigint);
        END IF;
        IF config_key = ANY (count_keys) AND config_value::text::numeric <> trunc(config_value::text::numeric) THEN
            RAISE EXCEPTION 'bank config "%" must be an integer >= 0, got %', config_key, config_value
                USING ERRCODE = '22023';
        END IF;
        IF config_key IN ('arm_weights', 'passthrough_weights', 'strategy_boosts') AND config_value ? 'bm25' THEN
            RAISE EXCEPTION 'bank config "%" names the arm "bm25", which is called keyword since 0.3.0', config_key
                USING ERRCODE = '22023', HINT = format('Write "keyword": %s instead of "bm25": %s (BM25 stays the '
                    'keyword arm''s default keyword_backend).', config_value->'bm25', config_value->'bm25');
        END IF;
        IF config_key = 'strategy_boosts' THEN
            SELECT format('"%s": "%s"', b.key, b.value #>> '{}') INTO bad FROM jsonb_each(config_value) b
            WHERE b.key NOT IN ('semantic', 'keyword', 'graph', 'temporal')
               OR coalesce(b.value #>> '{}', '') NOT IN ('low', 'medium', 'high') LIMIT 1;
            IF bad IS NOT NULL THEN
                RAISE EXCEPTION 'strategy_boosts entry % is not an arm with a tier', bad
                    USING ERRCODE = '22023',
                          HINT = 'Arms: semantic, keyword, graph, temporal; tiers: low, medium, high.';
            END IF;
        ELSIF config_key = 'disposition' THEN
            SELECT b.key INTO bad FROM jsonb_each(config_value) b
            WHERE NOT (defaults->config_key) ? b.key OR jsonb_typeof(b.value) <> 'number'
               OR b.value::text::numeric NOT IN (1, 2, 3, 4, 5)
            LIMIT 1;
            IF bad IS NOT NULL THEN
                RAISE EXCEPTION 'disposition trait "%" must be an integer from 1 to 5, got %', bad, config_value->bad
                    USING ERRCODE = '22023', HINT = 'Traits: skepticism, literalism, empathy; 3 is the default.';
            END IF;
        ELSIF config_key = 'directives' THEN
            SELECT d.n INTO bad FROM jsonb_array_elements(config_value) WITH ORDINALITY AS d(v, n)
            WHERE jsonb_typeof(d.v) <> 'object' OR jsonb_typeof(d.v->'name') IS DISTINCT FROM 'string'
               OR jsonb_typeof(d.v->'content') IS DISTINCT FROM 'string'
               OR coalesce(jsonb_typeof(d.v->'priority'), 'number') <> 'number'
               OR coalesce(jsonb_typeof(d.v->'active'), 'boolean') <> 'boolean'
               OR coalesce(jsonb_typeof(d.v->'tags'), 'array') <> 'array'
               OR EXISTS (SELECT FROM jsonb_object_keys(d.v) k WHERE k NOT IN ('name', 'content', 'priority', 'active', 'tags'))
            LIMIT 1;
            IF bad IS NOT NULL THEN
                RAISE EXCEPTION 'directive % is not {name, content, priority?, active?, tags?}', bad
                    USING ERRCODE = '22023',
                          HINT = 'e.g. [{"name": "cite", "content": "Cite the memories you use.", "priority": 1}]';
            END IF;
        ELSIF expected = 'object' THEN
            SELECT b.key INTO bad FROM jsonb_each(config_value) b
            WHERE NOT (defaults->config_key) ? b.key OR jsonb_typeof(b.value) <> 'number' OR b.value::text::numeric < 0
            LIMIT 1;
            IF bad IS NOT NULL THEN
                RAISE EXCEPTION 'bank config "%" has a bad entry "%"', config_key, bad
                    USING ERRCODE = '22023', HINT = format('Keys: %s; values: %s.',
                        (SELECT string_agg(k, ', ') FROM jsonb_object_keys(defaults->config_key) k),
                        CASE WHEN config_key IN ('recall_budgets', 'reranker_candidates') THEN 'integers >= 1'
                             ELSE 'numbers >= 0' END);
            END IF;
            IF config_key IN ('recall_budgets', 'reranker_candidates') AND EXISTS (SELECT FROM jsonb_each(config_value) b
                    WHERE b.value::text::numeric < 1 OR b.value::text::numeric <> trunc(b.value::text::numeric)) THEN
                RAISE EXCEPTION '% must map each of low, mid, high it names to an integer >= 1, got %', config_key,
                    config_value
                    USING ERRCODE = '22023';
            END IF;
        END IF;
    END LOOP;
    IF config->>'budget_function' NOT IN ('fixed', 'adaptive') THEN
        RAISE EXCEPTION 'budget_function must be fixed or adaptive, got "%"', config->>'budget_function'
            USING ERRCODE = '22023';
    END IF;
    IF config->>'recency_function' NOT IN ('linear', 'exponential', 'none') THEN
        RAISE EXCEPTION 'recency_function must be linear, exponential or none, got "%"', config->>'recency_function'
            USING ERRCODE = '22023';
    END IF;
    IF config->>'keyword_backend' NOT IN ('bm25', 'native', 'pg_search') THEN
        RAISE EXCEPTION 'keyword_backend must be bm25, native or pg_search, got "%"', config->>'keyword_backend'
            USING ERRCODE = '22023';
    END IF;
    IF config->>'keyword_backend' = 'pg_search' AND to_regclass('hindsight.memory_units_bm25_idx') IS NULL THEN
        RAISE EXCEPTION 'keyword_backend pg_search needs the pg_search extension and its index'
            USING ERRCODE = '0A000', HINT = 'Run SELECT hindsight.enable_pg_search(); (docs/scale-out.md).';
    END IF;
    IF config ? 'embedding_model' AND btrim(config->>'embedding_model') = '' THEN
        RAISE EXCEPTION 'embedding_model must name a model, got ""' USING ERRCODE = '22023',
            HINT = 'all-MiniLM-L6-v2, multilingual-e5-small, or a sentence-transformers model path (docs/providers.md).';
    END IF;
    IF config->>'extractor' NOT IN ('offline', 'verbatim', 'llm') THEN
        RAISE EXCEPTION 'extractor must be offline, verbatim or llm, got "%"', config->>'extractor'
            USING ERRCODE = '22023', HINT = 'llm also needs llm_base_url and llm_model (docs/retain.md).';
    END IF;
    IF config->>'extractor' = 'llm' AND (coalesce(config->>'llm_base_url', '') = '' OR coalesce(config->>'llm_model', '') = '') THEN
        RAISE EXCEPTION 'extractor llm needs llm_base_url and llm_model'
            USING ERRCODE = '22023',
                  HINT = 'e.g. {"extractor": "llm", "llm_base_url": "https://api.openai.com/v1", "llm_model": "gpt-4o-mini"}';
    END IF;
    SELECT k INTO bad FROM unnest(ARRAY['dedupe_similarity', 'semantic_link_min_similarity', 'observation_similarity',
                                        'observation_merge_similarity', 'update_min_similarity']) k
    WHERE (config->>k)::float8 > 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION '% must be a cosine similarity in [0, 1], got %', bad, config->bad
            USING ERRCODE = '22023';
    END IF;
    SELECT k INTO bad FROM unnest(ARRAY['update_min_confidence', 'update_move_confidence']) k
    WHERE (config->>k)::float8 > 1 LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION '% must be a probability in [0, 1], got %', bad, config->bad
            USING ERRCODE = '22023', HINT = 'The update judge''s confidence in a link (docs/recall.md, "Updates win").';
    END IF;
    IF (config->>'reranker_weight')::float8 > 1 THEN
        RAISE EXCEPTION 'reranker_weight must be in [0, 1], got %', config->'reranker_weight'
            USING ERRCODE = '22023', HINT = 'The reader''s share of the rank fusion; 0.7 is the default (docs/recall.md).';
    END IF;
    IF config->>'updates_win' NOT IN ('confident', 'off') THEN
        RAISE EXCEPTION 'updates_win must be confident or off, got "%"', config->>'updates_win'
            USING ERRCODE = '22023',
                  HINT = 'confident: a link of at least update_move_confidence moves a unit (docs/recall.md, "Updates win").';
    END IF;
    IF config->>'hemisphere' NOT IN ('north', 'south') THEN
        RAISE EXCEPTION 'hemisphere must be north or south, got "%"', config->>'hemisphere' USING ERRCODE = '22023';
    END IF;
    -- The query analysis (hindsight_pl.temporal) reads the zone: it must know it too.
    IF config ? 'time_zone'
       AND (SELECT problem FROM hindsight._parse_temporal('', now(), config->>'time_zone', 'north')) IS NOT NULL THEN
        RAISE EXCEPTION 'unknown time zone "%"', config->>'time_zone'
            USING ERRCODE = '22023', HINT = 'Use an IANA name such as UTC or Europe/Berlin, or an offset such as +02:00.';
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
    'Validates a bank config against hindsight._default_config() (known keys, JSON types, ranges, enums, '
    'strategy_boosts arms and tiers; embedding_provider and reranker_provider by hindsight._check_provider, set by '
    'superusers only: 42501) and returns it; raises 22023 naming the bad key, 54000 for a config past json_bytes '
    'or json_depth (hindsight.limits()). Trigger banks_config_checked runs '
    'it on every insert and config update.';

CREATE OR REPLACE FUNCTION hindsight._lock_bank(bank_id text)
RETURNS void
LANGUAGE sql
AS $$
    -- One writer per bank at a time: every function that writes a bank's memory
    -- (retain, delete_document, consolidate, delete_bank) takes this lock first,
    -- so their upserts of shared rows (entities, co-occurrences, BM25 terms, bank
    -- counts, links) never interleave and cannot deadlock. Readers never take it;
    -- writers of other banks take other keys (a 64-bit hash of the bank id: two
    -- banks that collide only take turns).
    SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('hindsight_pg bank ' || bank_id, 0))
$$;
COMMENT ON FUNCTION hindsight._lock_bank(text) IS
    'Takes the bank''s write lock (a transaction-level advisory lock on a 64-bit hash of the bank id), held to the '
    'end of the transaction. Writers of one bank take turns; docs/reliability.md.';

CREATE OR REPLACE FUNCTION hindsight.create_bank(
    bank_id text,
    name text DEFAULT NULL,
    config jsonb DEFAULT '{}'::jsonb,
    if_not_exists bool DEFAULT false
)
RETURNS text
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    checked jsonb;
    created text;
BEGIN
    IF bank_id IS NULL OR btrim(bank_id) = '' THEN
        RAISE EXCEPTION 'bank_id must be a non-blank string of at most 200 characters'
            USING ERRCODE = '22023';
    END IF;
    PERFORM hindsight._check_limit('name_chars', 'bank_id', length(bank_id));
    PERFORM hindsight._check_limit('name_chars', 'name', length(name));
    -- the bank records the model its vectors are made with: the one its embedding provider gives
    checked := hindsight._check_config(create_bank.config);
    checked := jsonb_build_object('embedding_model', hindsight.embedding_model_name(
                   coalesce(checked->'embedding_provider', hindsight._setting('embedding_provider')))) || checked;
    -- One row of constants: on Citus a single-shard insert, whose RETURNING says whether the row went
    -- in (an INSERT ... SELECT went through the coordinator and counted the row as written even when
    -- the conflict dropped it, so an existing bank, another tenant's too, passed for created).
    INSERT INTO hindsight.banks AS b (bank_id, name, config)
    VALUES (create_bank.bank_id, create_bank.name, checked)
    ON CONFLICT ON CONSTRAINT banks_pkey DO NOTHING
    RETURNING b.bank_id INTO created;
    IF created IS NULL AND NOT if_not_exists THEN
        RAISE EXCEPTION 'bank "%" already exists', bank_id
            USING ERRCODE = '23505', SCHEMA = 'hindsight', TABLE = 'banks', CONSTRAINT = 'banks_pkey',
                  HINT = 'Pass if_not_exists => true to reuse it.';
    END IF;
    RETURN bank_id;
END
$$;
COMMENT ON FUNCTION hindsight.create_bank(text, text, jsonb, bool) IS
    'Creates a memory bank and returns its id. config (a JSON object) overrides hindsight._default_config(); '
    'the bank''s config records embedding_model, the model of its vectors (given, else the one its embedding '
    'provider gives: hindsight.embedding_model_name). Raises 23505 when the bank exists unless if_not_exists, 54000 '
    'for an id or name over 200 characters (name_chars), '
    '22023 on a bad id or config.';

CREATE OR REPLACE FUNCTION hindsight.configure_bank(bank_id text, config jsonb)
RETURNS jsonb
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    own jsonb;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown (or unreadable) bank
    IF config IS NULL OR jsonb_typeof(config) <> 'object' THEN
        RAISE EXCEPTION 'config must be a JSON object, got %', coalesce(jsonb_typeof(config), 'NULL')
            USING ERRCODE = '22023', HINT = 'e.g. {"llm_base_url": "http://localhost:11434/v1", "llm_model": "llama3.1:8b"}';
    END IF;
    SELECT b.config INTO own FROM hindsight.banks b WHERE b.bank_id = configure_bank.bank_id;
    -- the vectors are made with embedding_model: another model for a bank that holds some needs them re-made
    IF config ? 'embedding_model'
       AND (config->>'embedding_model') IS DISTINCT FROM hindsight._merge_config(own)->>'embedding_model'
       AND (EXISTS (SELECT FROM hindsight.memory_units u WHERE u.bank_id = configure_bank.bank_id)
            OR EXISTS (SELECT FROM hindsight.mental_models m WHERE m.bank_id = configure_bank.bank_id
                                                               AND m.embedding IS NOT NULL)) THEN
        RAISE EXCEPTION 'bank "%" holds vectors made with %; they must be re-made with %', bank_id,
            hindsight._merge_config(own)->>'embedding_model', coalesce(config->>'embedding_model', 'the default')
            USING ERRCODE = 'HS409', HINT = format('Run: hindsight-pg reembed %s --model %s (docs/providers.md).',
                                                   bank_id, coalesce(config->>'embedding_model', 'MODEL'));
    END IF;
    -- keys given as null go back to their defaults
    own := (own || config) - ARRAY(SELECT c.key FROM jsonb_each(config) c WHERE c.value = 'null'::jsonb);
    UPDATE hindsight.banks b SET config = own  -- validated by the trigger banks_config_checked
    WHERE b.bank_id = configure_bank.bank_id;
    IF NOT FOUND THEN  -- row-level security: only the bank's admins update it
        RAISE EXCEPTION 'only an admin of bank "%" may change its config', bank_id
            USING ERRCODE = '42501', HINT = 'An admin grants it with hindsight.grant_bank(bank_id, role, ''admin'').';
    END IF;
    RETURN hindsight.bank_config(bank_id);
END
$$;
COMMENT ON FUNCTION hindsight.configure_bank(text, jsonb) IS
    'Changes an existing bank''s config: the keys of config (a JSON object) replace the bank''s own, a key given '
    'as null goes back to its default; validated like create_bank''s (provider keys only when they change: '
    'superusers only). Returns the effective config '
    '(hindsight.bank_config). Errors: HS404 unknown bank, 22023 a bad key or value, 42501 not an admin of the bank, '
    'HS409 a new embedding_model for a bank that holds vectors (hindsight-pg reembed changes it).';

CREATE OR REPLACE FUNCTION hindsight.delete_bank(bank_id text)
RETURNS bool
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
BEGIN
    PERFORM hindsight._lock_bank(bank_id);
    DELETE FROM hindsight.banks b WHERE b.bank_id = delete_bank.bank_id;  -- admins only (row-level security)
    RETURN FOUND;
END
$$;
COMMENT ON FUNCTION hindsight.delete_bank(text) IS
    'Deletes a bank with all its documents, chunks, memory units, entities and links. '
    'Returns false when there was no such bank.';

CREATE OR REPLACE FUNCTION hindsight._model_defaults(model text)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Cosine thresholds depend on the model: multilingual-e5-small (the default, whose values
    -- _default_config holds) puts most pairs of unrelated texts above 0.75 where all-MiniLM-L6-v2
    -- puts them near 0.3. Each E5 value stands for the MiniLM value it replaced: the median E5
    -- cosine of the pairs whose MiniLM cosine is within 0.02 of it (309,291 pairs of LoCoMo turns
    -- and 239,248 question-turn pairs, two dev conversations): 0.7 -> 0.91, 0.85 -> 0.94 between
    -- texts, 0.3 -> 0.79, 0.1 -> 0.74 from a query; near-duplicates (0.95, 0.97) are too few for a
    -- median and keep E5 values at least as strict (0.978, 0.985: no two LoCoMo turns merge).
    SELECT CASE model
        WHEN 'all-MiniLM-L6-v2' THEN '{
            "dedupe_similarity": 0.95,
            "observation_merge_similarity": 0.97,
            "observation_similarity": 0.85,
            "semantic_link_min_similarity": 0.7,
            "update_min_similarity": 0.5,
            "graph_seed_min_similarity": 0.3,
            "graph_semantic_floor": 0.3,
            "temporal_min_similarity": 0.1
        }'::jsonb
        ELSE '{}'::jsonb END
$$;
COMMENT ON FUNCTION hindsight._model_defaults(text) IS
    'The config defaults an embedding model changes: its cosine thresholds (dedupe, observations, semantic links, '
    'graph seeds and floor, temporal pool). The plain defaults are multilingual-e5-small''s; all-MiniLM-L6-v2''s '
    'are here (E5''s stand for them: the median E5 cosine of pairs at MiniLM''s value); {} for E5 and unknown models.';

CREATE OR REPLACE FUNCTION hindsight._merge_config(own jsonb)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path FROM CURRENT
AS $$
    -- the defaults, then those of the bank's embedding model, overridden by the bank's own keys;
    -- object-valued keys merge one level down
    SELECT d.defaults || own || coalesce((
        SELECT jsonb_object_agg(e.key, e.value || (own->e.key))
        FROM jsonb_each(d.defaults) e
        WHERE jsonb_typeof(e.value) = 'object' AND own ? e.key), '{}'::jsonb)
    FROM (SELECT b.base || hindsight._model_defaults(coalesce(own->>'embedding_model', b.base->>'embedding_model'))
                 AS defaults
          FROM (SELECT hindsight._default_config() AS base) b) d
$$;
COMMENT ON FUNCTION hindsight._merge_config(jsonb) IS
    'A bank''s effective config from its own (banks.config): hindsight._default_config(), then the defaults of '
    'its embedding_model (hindsight._model_defaults), overridden by its keys, object-valued keys (recall_budgets, '
    '...) merged one level down. Reads no table, so a query may call it per row on Citus workers.';

CREATE OR REPLACE FUNCTION hindsight.bank_config(bank_id text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    own jsonb;
BEGIN
    SELECT b.config INTO own FROM hindsight.banks b WHERE b.bank_id = bank_config.bank_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown bank "%"', left(bank_id, 200) || CASE WHEN length(bank_id) > 200 THEN '...' ELSE '' END
            USING ERRCODE = 'HS404', HINT = 'Create it first with hindsight.create_bank(bank_id => ...).';
    END IF;
    RETURN hindsight._merge_config(own);
END
$$;
COMMENT ON FUNCTION hindsight.bank_config(text) IS
    'The effective config of a bank (defaults overridden by its own keys). Raises HS404 for an unknown bank.';

-- A caller that chose its models before the call (the driver's embedder, retain's dedupe threshold and
-- extractor) says with which config; the function that reads the config anyway compares, so the config is
-- read once a call and never taken from the caller.
CREATE OR REPLACE FUNCTION hindsight._check_config_seen(bank_id text, cfg jsonb, config_seen jsonb)
RETURNS void
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    IF config_seen IS NOT NULL AND config_seen IS DISTINCT FROM cfg THEN
        RAISE EXCEPTION 'the config of bank "%" changed since the caller read it', left(bank_id, 200)
            USING ERRCODE = 'HS412',
                  HINT = 'Nothing was done: read hindsight.bank_config again, choose the models from it and retry.';
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._check_config_seen(text, jsonb, jsonb) IS
    'Raises HS412 when config_seen (the effective config a caller chose its models with, or NULL: none) is not cfg '
    '(the bank''s effective config, read by the calling function).';

CREATE OR REPLACE FUNCTION hindsight.list_banks(only_bank_id text DEFAULT NULL)
RETURNS TABLE (bank_id text, name text, config jsonb, created_at timestamptz, unit_count bigint)
LANGUAGE plpgsql STABLE  -- not sql: Citus plans no query on a distributed table with a SQL function's parameters
AS $$
BEGIN
    IF only_bank_id IS NULL THEN
        RETURN QUERY
            SELECT b.bank_id, b.name, hindsight._merge_config(b.config), b.created_at, coalesce(c.unit_count, 0)
            FROM hindsight.banks b
            LEFT JOIN hindsight._bank_counts c ON c.bank_id = b.bank_id
            ORDER BY b.bank_id;
    ELSE
        -- the one bank's rows alone: on Citus, only the worker holding it
        RETURN QUERY
            SELECT b.bank_id, b.name, hindsight._merge_config(b.config), b.created_at, coalesce(c.unit_count, 0)
            FROM hindsight.banks b
            LEFT JOIN hindsight._bank_counts c ON c.bank_id = b.bank_id AND c.bank_id = only_bank_id
            WHERE b.bank_id = only_bank_id;
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight.list_banks(text) IS
    'The banks the caller may read (row-level security), by id, or only the bank only_bank_id (no row when it is '
    'not one the caller may read): (bank_id, name, config: the effective config as hindsight.bank_config gives it, '
    'created_at, unit_count: its memory units, observations included, from the counts the triggers keep, so no '
    'unit is read). Raises nothing; no rows when the caller may read no bank.';

-- Every bank config is validated, however it is written (create_bank, UPDATE, a restore). A row
-- trigger that reads no table: on Citus it runs on the worker holding the bank's row.
CREATE OR REPLACE FUNCTION hindsight._banks_config_checked()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM hindsight._check_config(NEW.config);
    ELSIF NEW.config IS DISTINCT FROM OLD.config THEN
        -- provider keys a superuser set and this change keeps are not the writer's to answer for
        PERFORM hindsight._check_config(NEW.config - ARRAY(
            SELECT k FROM unnest(ARRAY['embedding_provider', 'reranker_provider']) k
            WHERE NEW.config ? k AND NEW.config->k = OLD.config->k));
    END IF;
    RETURN NEW;
END
$$;
COMMENT ON FUNCTION hindsight._banks_config_checked() IS
    'Trigger: validates a bank''s config with hindsight._check_config on insert and on every config change '
    '(provider keys left as they were are not checked again, so a bank admin may change other keys of a bank '
    'whose provider a superuser set).';

CREATE OR REPLACE TRIGGER banks_config_checked BEFORE INSERT OR UPDATE OF config ON hindsight.banks
    FOR EACH ROW EXECUTE FUNCTION hindsight._banks_config_checked();
