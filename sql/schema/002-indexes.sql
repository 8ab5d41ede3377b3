-- Indexes. One HNSW index serves every bank: a statement about one bank plans
-- and locks the same handful of indexes however many banks exist (a partial
-- index per bank made planning 58 ms and a one-bank transaction hold 1,513 locks
-- at 1,500 banks), and no index is ever built while the system runs, so no bank
-- waits for another's. A search through a shared graph pays for the other banks'
-- units, so only banks that are large and a large share of the table use it;
-- the others are scanned exactly (hindsight._semantic_path, docs/reliability.md).
CREATE INDEX memory_units_embedding_idx
    ON hindsight.memory_units USING hnsw (embedding vector_cosine_ops);

-- The times a unit is about: its occurred range (or either end alone) and the
-- moment it was mentioned, as one multirange; the temporal arm asks which units'
-- times overlap the query window, through this GiST index (btree_gist for bank_id).
CREATE FUNCTION hindsight._time_span(
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz
)
RETURNS tstzmultirange
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- One expression (no subquery), so the planner inlines it: the temporal arm's bitmap scan
    -- rechecks it on every row it reads (at 100,000 units, a month's pool: 11 -> 6 ms).
    SELECT CASE
        WHEN occurred_start IS NULL AND occurred_end IS NULL THEN
            CASE WHEN mentioned_at IS NULL THEN '{}'::tstzmultirange
                 ELSE tstzmultirange(tstzrange(mentioned_at, mentioned_at, '[]')) END
        WHEN mentioned_at IS NULL THEN
            tstzmultirange(tstzrange(coalesce(occurred_start, occurred_end), coalesce(occurred_end, occurred_start), '[]'))
        ELSE tstzmultirange(tstzrange(coalesce(occurred_start, occurred_end), coalesce(occurred_end, occurred_start), '[]'),
                            tstzrange(mentioned_at, mentioned_at, '[]'))
    END
$$;
COMMENT ON FUNCTION hindsight._time_span(timestamptz, timestamptz, timestamptz) IS
    'The times a unit is about, as a multirange: [occurred_start, occurred_end] (or the one that exists) '
    'and the instant mentioned_at. Empty when the unit has no date.';

CREATE FUNCTION hindsight._effective_date(
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz
)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT coalesce(occurred_start, occurred_end, mentioned_at)
$$;
COMMENT ON FUNCTION hindsight._effective_date(timestamptz, timestamptz, timestamptz) IS
    'A unit''s date, the one rule: the time it is about (occurred_start; occurred_end alone stands for both, as '
    'in _time_span and describe_when), else when it was said (mentioned_at); NULL when none. Recency, temporal '
    'links, the temporal arm''s slices, consolidation and the timeline use it; temporal proximity '
    '(hindsight._best_date) takes the middle of the occurred span instead when both ends exist.';

CREATE INDEX memory_units_time_idx
    ON hindsight.memory_units USING gist (bank_id, hindsight._time_span(occurred_start, occurred_end, mentioned_at));

CREATE INDEX memory_units_type_occurred_idx
    ON hindsight.memory_units (bank_id, fact_type, occurred_start);
-- Retain's temporal links: a unit's nearest neighbours in time within its fact type.
CREATE INDEX memory_units_type_effective_idx
    ON hindsight.memory_units (bank_id, fact_type, hindsight._effective_date(occurred_start, occurred_end, mentioned_at));
-- The temporal arm's window read in date order, a slice at a time, when it holds many units.
CREATE INDEX memory_units_effective_idx
    ON hindsight.memory_units (bank_id, hindsight._effective_date(occurred_start, occurred_end, mentioned_at), id);
CREATE INDEX memory_units_mentioned_idx
    ON hindsight.memory_units (bank_id, mentioned_at);
CREATE INDEX memory_units_document_idx
    ON hindsight.memory_units (bank_id, document_id);
CREATE INDEX memory_units_chunk_idx
    ON hindsight.memory_units (bank_id, chunk_id);
CREATE INDEX memory_units_search_idx
    ON hindsight.memory_units USING gin (search_vector);
CREATE INDEX memory_units_tags_idx
    ON hindsight.memory_units USING gin (tags);

CREATE UNIQUE INDEX entities_name_key
    ON hindsight.entities (bank_id, lower(canonical_name));
CREATE INDEX entities_name_trgm_idx
    ON hindsight.entities USING gin (canonical_name gin_trgm_ops);

CREATE INDEX unit_entities_entity_idx
    ON hindsight.unit_entities (bank_id, entity_id, unit_id);
CREATE INDEX memory_links_to_idx
    ON hindsight.memory_links (bank_id, to_unit_id);
