-- Public reads the inspector (hindsight_pg/ui) needs: the config defaults, a unit's date and the
-- co-occurrence counts, each over the one private definition the pipeline uses.

CREATE OR REPLACE FUNCTION hindsight.default_config()
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT hindsight._default_config()
$$;
COMMENT ON FUNCTION hindsight.default_config() IS
    'The config defaults as a JSON object {key: value}, every key a bank config may hold (docs/reference.md, Bank '
    'config): what a bank''s own keys override. A bank''s effective config (hindsight.bank_config) also takes the '
    'thresholds of its embedding_model (all-MiniLM-L6-v2 banks). Reads no table; raises nothing.';

CREATE OR REPLACE FUNCTION hindsight.unit_date(
    occurred_start timestamptz,
    occurred_end timestamptz,
    mentioned_at timestamptz
)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- one expression, inlined: the rule is hindsight._effective_date's, which the index is on
    SELECT hindsight._effective_date(occurred_start, occurred_end, mentioned_at)
$$;
COMMENT ON FUNCTION hindsight.unit_date(timestamptz, timestamptz, timestamptz) IS
    'The date a memory unit is filed under, from its three timestamptz columns: occurred_start, else occurred_end '
    '(one end stands for both), else mentioned_at; NULL when all three are NULL. What recency, temporal links, '
    'consolidation, hindsight.bank_stats (first_date, last_date), hindsight.memory_timeline and the inspector''s '
    'timeline order and group by. Raises nothing.';

CREATE OR REPLACE FUNCTION hindsight.entity_cooccurrences(bank_id text, entity_ids uuid[])
RETURNS TABLE (entity_id uuid, other_entity_id uuid, unit_count int)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    -- no SET clause, so the planner inlines it (a caller's LIMIT applies): one index probe per entity
    SELECT c.entity_id, c.other_entity_id, c.unit_count
    FROM hindsight._entity_cooccurrences c
    WHERE c.bank_id = entity_cooccurrences.bank_id
      AND c.entity_id = ANY (entity_ids) AND c.other_entity_id = ANY (entity_ids)
      AND c.entity_id < c.other_entity_id
    ORDER BY c.unit_count DESC, c.entity_id, c.other_entity_id
$$;
COMMENT ON FUNCTION hindsight.entity_cooccurrences(text, uuid[]) IS
    'The pairs among the given entities (hindsight.entities ids) of a bank that occur in the same memory units, '
    'each pair once (entity_id < other_entity_id), with how many units mention both (unit_count >= 1), most first, '
    'ties by ids. From the counts the triggers keep, not a join of units (hindsight.entity_graph). No rows for an '
    'unknown bank, one the caller may not read, or ids of no entity of it; raises nothing.';
