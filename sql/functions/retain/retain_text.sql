-- Retain from raw text inside the database: hindsight_pl.pipeline.retain, as the driver runs it.

CREATE OR REPLACE FUNCTION hindsight._retain_text(
    bank_id text,
    content text,
    document_id text DEFAULT NULL,
    mentioned_at timestamptz DEFAULT NULL,
    context text DEFAULT NULL,
    tags text[] DEFAULT NULL,
    metadata jsonb DEFAULT NULL,
    entities text[] DEFAULT NULL,
    speaker text DEFAULT NULL,
    update_mode text DEFAULT 'replace'
)
RETURNS TABLE (document_id text, unit_id uuid, merged jsonb)
LANGUAGE plpython3u
SET citus.allow_nested_distributed_execution = on
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl.pipeline import in_database
return in_database.retain_text(plpy, GD, bank_id, content, document_id, mentioned_at, context, tags, metadata,
                               entities, speaker, update_mode)
$$;
COMMENT ON FUNCTION hindsight._retain_text(text, text, text, timestamptz, text, text[], jsonb, text[], text, text) IS
    'The PL/Python body of hindsight.retain_text (which see).';

CREATE OR REPLACE FUNCTION hindsight.retain_text(
    bank_id text,
    content text,
    document_id text DEFAULT NULL,
    mentioned_at timestamptz DEFAULT NULL,
    context text DEFAULT NULL,
    tags text[] DEFAULT NULL,
    metadata jsonb DEFAULT NULL,
    entities text[] DEFAULT NULL,
    speaker text DEFAULT NULL,
    update_mode text DEFAULT 'replace'
)
RETURNS SETOF hindsight.retained_unit
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    -- positional: document_id names both an argument and a result column
    RETURN QUERY SELECT * FROM hindsight._retain_text($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    PERFORM hindsight._raise(state, message, hint);
END
$$;
COMMENT ON FUNCTION hindsight.retain_text(text, text, text, timestamptz, text, text[], jsonb, text[], text, text) IS
$$Retains raw text from SQL alone: cleans and chunks content (at most 3,000 characters a chunk), extracts facts
with the bank's extractor (offline, verbatim, or llm: the bank's language model, called from the database;
docs/retain.md), embeds them with the bank's embedding provider
(hindsight.embed) and stores them with hindsight.retain, all inside the database and in one transaction.
mentioned_at (when the text was said or written; relative dates in it count from there) defaults to now(); entities and speaker are the caller's names; update_mode replace | append for an existing
document_id (unchanged chunks keep their memories). Returns (document_id, unit_id, merged) per new memory unit
(unit_id NULL when the text gave none; merged: the repeated facts of the text stored as that unit, [{item_index,
text, reason: same text | similar embedding, similarity}], [] when none: docs/retain.md). Errors: HS404 unknown bank, 22023 blank content or bad update_mode, 42501 a
language model endpoint the role may not call (setting llm_endpoints, docs/reflect.md), HS503 the language model
failed, HS502 the embedding provider failed; 54000 content over 1,000,000 characters, more than 100 tags or entities,
a name over 200 characters, metadata past 64 KiB or 32 levels (hindsight.limits()), refused before any work; nothing is
stored then. A cancel or statement_timeout takes effect between chunks and model calls (docs/reliability.md).$$;
