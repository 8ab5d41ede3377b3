-- Model providers inside the database: the database-wide settings, the provider config a bank uses,
-- and embeddings and cross-encoder scores from PL/Python (hindsight_pl.providers), configured per bank or
-- database-wide (docs/providers.md).

CREATE OR REPLACE FUNCTION hindsight._check_provider(config jsonb, what text)
RETURNS jsonb
LANGUAGE plpython3u IMMUTABLE
AS $$
import json
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl import providers
try:
    return json.dumps(providers.check(json.loads(config), what))
except ValueError as exc:
    plpy.error(str(exc), sqlstate="22023", hint="e.g. {\"kind\": \"http\", \"url\": \"http://127.0.0.1:8081\"}"
               " or {\"kind\": \"local\", \"model\": \"all-MiniLM-L6-v2\"} (docs/providers.md).")
$$;
COMMENT ON FUNCTION hindsight._check_provider(jsonb, text) IS
    'Validates a provider config for what = embedding or reranker (hindsight_pl.providers.check) and returns '
    'it; raises 22023 naming the problem.';

CREATE OR REPLACE FUNCTION hindsight.set_setting(name text, value jsonb)
RETURNS jsonb
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
BEGIN
    IF name IS NULL OR name NOT IN ('embedding_provider', 'reranker_provider', 'llm_endpoints') THEN
        RAISE EXCEPTION 'unknown setting "%"', name
            USING ERRCODE = '22023', HINT = 'Settings: embedding_provider, reranker_provider, llm_endpoints.';
    END IF;
    IF NOT hindsight._is_superuser(hindsight._invoker()) THEN
        RAISE EXCEPTION 'only a superuser may change %', name
            USING ERRCODE = '42501',
                  HINT = 'In-database providers run as the server''s operating-system user (docs/providers.md).';
    END IF;
    IF value IS NULL THEN
        DELETE FROM hindsight.settings s WHERE s.name = set_setting.name;
        RETURN hindsight._setting(name);
    END IF;
    IF name = 'llm_endpoints' AND NOT (
        jsonb_typeof(value) = 'object' AND value ?& ARRAY['base_urls'] AND (SELECT count(*) FROM jsonb_object_keys(value)) = 1
        AND jsonb_typeof(value->'base_urls') = 'array'
        AND NOT jsonb_path_exists(value->'base_urls', '$[*] ? (@.type() != "string")')) THEN
        RAISE EXCEPTION 'llm_endpoints must be {"base_urls": [...]}, a list of base URLs, got %', value
            USING ERRCODE = '22023', HINT = 'e.g. {"base_urls": ["http://127.0.0.1:11434/v1"]} (docs/reflect.md).';
    END IF;
    INSERT INTO hindsight.settings AS s (name, value)
    VALUES (set_setting.name, CASE WHEN set_setting.name = 'llm_endpoints' THEN value
                                   ELSE hindsight._check_provider(value, replace(set_setting.name, '_provider', '')) END)
    ON CONFLICT ON CONSTRAINT settings_pkey DO UPDATE SET value = excluded.value;
    RETURN hindsight._setting(name);
END
$$;
COMMENT ON FUNCTION hindsight.set_setting(text, jsonb) IS
    'Sets a database-wide setting and returns its value: embedding_provider or reranker_provider (a provider '
    'config such as {"kind": "http", "url": "http://127.0.0.1:8081"}, docs/providers.md), llm_endpoints '
    '({"base_urls": [...]}: the language model endpoints in-database reflect may call for roles other than '
    'superusers, docs/reflect.md). NULL restores the built-in default. Superusers only (42501): in-database models '
    'run as the server''s operating-system user. 22023 on an unknown name or a bad value.';

CREATE OR REPLACE FUNCTION hindsight._setting(name text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
BEGIN
    RETURN (
        SELECT coalesce(
            (SELECT s.value FROM hindsight.settings s WHERE s.name = _setting.name),
            CASE name WHEN 'embedding_provider' THEN '{"kind": "local", "model": "multilingual-e5-small"}'::jsonb
                      WHEN 'reranker_provider' THEN '{"kind": "local", "model": "hindsight-reader"}'::jsonb
                      WHEN 'llm_endpoints' THEN '{"base_urls": []}'::jsonb END)
    );
END
$$;
COMMENT ON FUNCTION hindsight._setting(text) IS
    'A database-wide setting: its row in hindsight.settings, else the built-in default.';

CREATE OR REPLACE FUNCTION hindsight.embedding_model_name(provider jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE provider->>'kind'
        WHEN 'http' THEN coalesce(nullif(provider->>'model', ''), rtrim(provider->>'url', '/'))
        ELSE coalesce(nullif(provider->>'model', ''), 'multilingual-e5-small') END
$$;
COMMENT ON FUNCTION hindsight.embedding_model_name(jsonb) IS
    'The name of the model an embedding provider config gives, as a bank''s embedding_model records it: local: its '
    'model (default multilingual-e5-small); http: its "model" when given, else its url (without a trailing /). '
    'provider is a provider config as hindsight.provider_config gives it; returns text, NULL for NULL. Raises '
    'nothing. The driver uses it to tell whether the database''s provider makes a given model''s vectors.';

CREATE OR REPLACE FUNCTION hindsight._provider(cfg jsonb, what text, bank_id text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
DECLARE
    provider jsonb := coalesce(cfg->(what || '_provider'), hindsight._setting(what || '_provider'));
BEGIN
    IF what = 'embedding' THEN
        -- a bank without a provider of its own runs the database-wide local one with its own model
        IF NOT cfg ? 'embedding_provider' AND provider->>'kind' = 'local' THEN
            provider := provider || jsonb_build_object('model', cfg->>'embedding_model');
        END IF;
        IF hindsight.embedding_model_name(provider) <> cfg->>'embedding_model' THEN
            RAISE EXCEPTION 'bank "%" holds vectors made with %, but its embedding provider gives %', bank_id,
                cfg->>'embedding_model', hindsight.embedding_model_name(provider)
                USING ERRCODE = 'HS409',
                      HINT = format('Name the model an http provider runs in its config ("model"), restore the '
                                    'provider, or re-make the vectors with it: hindsight-pg reembed %s --model %s '
                                    '(docs/providers.md).', bank_id, hindsight.embedding_model_name(provider));
        END IF;
    END IF;
    RETURN provider;
END
$$;
COMMENT ON FUNCTION hindsight._provider(jsonb, text, text) IS
    'The provider config for what = embedding or reranker from a bank''s effective config cfg in hand (recall and '
    'retain read it once and pass it here): hindsight.provider_config''s rule and errors (HS409), bank_id only '
    'naming the bank in them.';

CREATE OR REPLACE FUNCTION hindsight._check_provider_use(provider jsonb, what text)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
DECLARE
    setting jsonb := hindsight._setting(what || '_provider');
BEGIN
    -- In-database providers load models and call URLs as the server's operating-system user: the ones a role may
    -- run are those a superuser chose (the database-wide setting, a local embedding one with a bank's own model, or
    -- a bank's own provider), as hindsight._provider gives them from a bank's config.
    IF provider IS NULL OR provider->>'kind' = 'none' OR provider = setting
       OR (what = 'embedding' AND provider->>'kind' = 'local' AND setting->>'kind' = 'local'
           AND provider - 'model' = setting - 'model')
       OR hindsight._is_superuser(hindsight._invoker())
       OR EXISTS (SELECT FROM hindsight.banks b WHERE b.config->(what || '_provider') = provider) THEN
        RETURN;
    END IF;
    RAISE EXCEPTION 'only a superuser may run an % provider that no bank and no setting names', what
        USING ERRCODE = '42501', HINT = 'Call hindsight.embed or hindsight.rerank with a bank (docs/providers.md).';
END
$$;
COMMENT ON FUNCTION hindsight._check_provider_use(jsonb, text) IS
    'Raises 42501 unless the caller may run provider config provider (what = embedding or reranker): a superuser '
    'any; another role the database-wide setting (for embedding, local with any model when it is local, as a bank''s '
    'embedding_model makes it), a provider a bank it can read names, or none. Every in-database model call checks '
    'it (hindsight_pl.pipeline.in_database.provider).';

CREATE OR REPLACE FUNCTION hindsight.provider_config(bank_id text, what text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
BEGIN
    IF what IS NULL OR what NOT IN ('embedding', 'reranker') THEN
        RAISE EXCEPTION 'what must be embedding or reranker, got "%"', what USING ERRCODE = '22023';
    END IF;
    IF bank_id IS NULL THEN
        RETURN hindsight._setting(what || '_provider');
    END IF;
    RETURN hindsight._provider(hindsight.bank_config(bank_id), what, bank_id);
END
$$;
COMMENT ON FUNCTION hindsight.provider_config(text, text) IS
    'The provider config a bank uses for what = embedding or reranker: the bank''s config key '
    'embedding_provider / reranker_provider, else the database-wide setting, else the built-in default (local '
    'multilingual-e5-small; the packaged reader hindsight-reader); a local embedding provider that is not the bank''s own runs the bank''s '
    'embedding_model. bank_id NULL gives the database-wide one. Errors: HS404 unknown bank; HS409 when the '
    'embedding provider gives another model than the bank''s vectors are made with (embedding_model).';

CREATE OR REPLACE FUNCTION hindsight._embed(provider jsonb, texts text[], kind text)
RETURNS vector[]
LANGUAGE plpython3u
SET citus.allow_nested_distributed_execution = on
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl.pipeline import in_database
return in_database.embed(plpy, GD, provider, texts, kind)
$$;
COMMENT ON FUNCTION hindsight._embed(jsonb, text[], text) IS
    'The PL/Python body of hindsight._embed_with (which see).';

CREATE OR REPLACE FUNCTION hindsight._embed_with(provider jsonb, texts text[], kind text)
RETURNS vector[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    RETURN hindsight._embed(provider, texts, kind);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight._embed_with(jsonb, text[], text) IS
    'hindsight.embed with the provider config in hand (hindsight._provider of a config already read: recall''s '
    'query), the same vectors and errors.';

CREATE OR REPLACE FUNCTION hindsight.embed(bank_id text, texts text[], kind text DEFAULT 'passage')
RETURNS vector[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
BEGIN
    RETURN hindsight._embed_with(hindsight.provider_config(bank_id, 'embedding'), texts, kind);
END
$$;
COMMENT ON FUNCTION hindsight.embed(text, text[], text) IS
$$Embeds texts with the bank's embedding provider (hindsight.provider_config(bank_id, 'embedding')) inside the
database: kind = query or passage (E5 models prefix "query: " / "passage: "). Returns one unit-length vector(384)
per text, in order. A local model loads once per database session (docs/providers.md gives the time and memory);
an http provider calls a TEI-protocol server. Errors: HS502 when the provider fails (the message names the
model or URL), 22023 bad kind, HS404 unknown bank.$$;

CREATE OR REPLACE FUNCTION hindsight._rerank(provider jsonb, query text, documents text[])
RETURNS float8[]
LANGUAGE plpython3u
SET citus.allow_nested_distributed_execution = on
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl.pipeline import in_database
return in_database.rerank(plpy, GD, provider, query, documents)
$$;
COMMENT ON FUNCTION hindsight._rerank(jsonb, text, text[]) IS
    'The PL/Python body of hindsight._rerank_with (which see).';

CREATE OR REPLACE FUNCTION hindsight._unread(provider jsonb, query text)
RETURNS text
LANGUAGE plpython3u
SET citus.allow_nested_distributed_execution = on
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl.pipeline import in_database
return in_database.unread(plpy, GD, provider, query)
$$;
COMMENT ON FUNCTION hindsight._unread(jsonb, text) IS
    'Why the cross-encoder of reranker provider config provider does not read query (no reader configured, a '
    'script it does not read, the packaged reader missing), or NULL when it reads it: what recall''s trace gives as '
    'rerank.why_passthrough.';

CREATE OR REPLACE FUNCTION hindsight._rerank_with(provider jsonb, query text, documents text[])
RETURNS float8[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    RETURN hindsight._rerank(provider, query, documents);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight._rerank_with(jsonb, text, text[]) IS
    'hindsight.rerank with the reranker provider config in hand (hindsight._provider of a config already read: '
    'recall_finish''s), the same scores (NULL where it does not read) and errors.';

CREATE OR REPLACE FUNCTION hindsight.rerank(bank_id text, query text, documents text[])
RETURNS float8[]
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
BEGIN
    RETURN hindsight._rerank_with(hindsight.provider_config(bank_id, 'reranker'), query, documents);
END
$$;
COMMENT ON FUNCTION hindsight.rerank(text, text, text[]) IS
$$Scores (query, document) pairs with the bank's cross-encoder (hindsight.provider_config(bank_id, 'reranker'))
inside the database: raw scores (logits), one per document in order, or NULL when the bank has no reranker
(kind none). A local CrossEncoder loads once per database session; an http provider calls a TEI-protocol
server's /rerank with raw_scores. Errors: HS502 when the provider fails (naming the model or URL), HS404
unknown bank.$$;
