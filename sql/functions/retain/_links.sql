-- Retain's links between memory units: temporal and semantic neighbours (the causal ones come with
-- the items, hindsight.retain).

CREATE OR REPLACE FUNCTION hindsight._nearest_hnsw(
    bank_id text,
    unit_ids uuid[],
    top_k int,
    min_similarity float8,
    earlier_facts bool DEFAULT false
)
RETURNS TABLE (unit_id uuid, neighbour_id uuid, similarity float8)
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
SET hnsw.ef_search = 40
SET hnsw.iterative_scan = strict_order
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_sort = off
SET jit = off
AS $$
BEGIN
    -- Nearest units of a bank searched through the shared HNSW index
    -- (hindsight._semantic_path): one index search per unit, an iterative
    -- scan keeping the bank's units. Scans and sorts are off because the planner
    -- would rather scan the bank and sort it once per unit; JIT is off because
    -- the disabled sort adds 1e10 to the cost, past jit_above_cost. These settings,
    -- and ef_search (top_k + 10: the unit itself, ties), last for this call only.
    PERFORM set_config('hnsw.ef_search', greatest(top_k + 10, 40)::text, true);
    RETURN QUERY EXECUTE $sql$
        SELECT n.id, nb.id, nb.sim
        FROM hindsight.memory_units n
        CROSS JOIN LATERAL (
            SELECT m.id, 1 - (m.embedding <=> n.embedding) AS sim
            FROM hindsight.memory_units m
            WHERE m.bank_id = $1 AND m.id <> n.id
              AND (NOT $5 OR (m.fact_type <> 'observation' AND m.mentioned_at < n.mentioned_at))
            ORDER BY m.embedding <=> n.embedding
            LIMIT $3
        ) nb
        WHERE n.bank_id = $1 AND n.id = ANY ($2) AND nb.sim >= $4 AND (NOT $5 OR n.fact_type <> 'observation')
    $sql$
    USING bank_id, unit_ids, top_k, min_similarity, earlier_facts;
END
$$;
COMMENT ON FUNCTION hindsight._nearest_hnsw(text, uuid[], int, float8, bool) IS
    'For each unit of unit_ids, its top_k nearest units of the bank by cosine searched through the shared HNSW '
    'index (iterative scan), kept at similarity >= min_similarity: (unit_id, neighbour_id, similarity). With '
    'earlier_facts, only facts (no observations) said before it, and only for units that are facts: the '
    'candidates of a knowledge update (hindsight._link_updates).';

CREATE OR REPLACE FUNCTION hindsight._insert_links(
    bank_id text,
    link_type text,
    from_ids uuid[],
    to_ids uuid[],
    weights float8[]
)
RETURNS int
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    made int;
BEGIN
    -- The rows come from arrays joined with the bank's row (bk), so that on Citus this is one INSERT ... SELECT
    -- on the bank's shards: an INSERT of rows computed on the coordinator would be pulled there and sent back
    -- (COPY, refused under row-level security to a role that is not a superuser, or intermediate results and
    -- two-phase commit). A link made again keeps the larger weight.
    INSERT INTO hindsight.memory_links AS l (bank_id, from_unit_id, to_unit_id, link_type, weight)
    SELECT bk.bank_id, x.a, x.b, _insert_links.link_type, x.w
    FROM hindsight.banks bk, unnest(from_ids, to_ids, weights) AS x(a, b, w)
    WHERE bk.bank_id = _insert_links.bank_id
    ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type) DO UPDATE SET weight = greatest(l.weight, excluded.weight);
    GET DIAGNOSTICS made = ROW_COUNT;
    RETURN made;
END
$$;
COMMENT ON FUNCTION hindsight._insert_links(text, text, uuid[], uuid[], float8[]) IS
    'Inserts links of one type into a bank (from_ids[i] -> to_ids[i], weight weights[i]); a link the bank has '
    'keeps the larger weight. Returns the rows inserted or updated.';

CREATE OR REPLACE FUNCTION hindsight._semantic_links_hnsw(
    bank_id text,
    unit_ids uuid[],
    top_k int,
    min_similarity float8
)
RETURNS void
LANGUAGE plpgsql  -- not sql: Citus plans no query on a distributed table with a SQL function's parameters
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    froms uuid[];
    tos uuid[];
    weights float8[];
BEGIN
    SELECT array_agg(nb.unit_id), array_agg(nb.neighbour_id), array_agg(least(1.0, nb.similarity))
    INTO froms, tos, weights
    FROM hindsight._nearest_hnsw(_semantic_links_hnsw.bank_id, unit_ids, top_k, min_similarity) nb;
    PERFORM hindsight._insert_links(_semantic_links_hnsw.bank_id, 'semantic', froms, tos, weights);
END
$$;
COMMENT ON FUNCTION hindsight._semantic_links_hnsw(text, uuid[], int, float8) IS
    'Semantic links of new units (unit_ids) of a bank searched through the shared HNSW index '
    '(hindsight._nearest_hnsw): per unit its top_k nearest units of the bank by cosine, kept at similarity >= '
    'min_similarity, weight = the similarity.';

CREATE OR REPLACE FUNCTION hindsight._link_units(
    bank_id text,
    unit_ids uuid[],
    config jsonb,
    semantic_path text
)
RETURNS void
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    neighbours int := (config->>'temporal_link_neighbours')::int;
    top_k int := (config->>'semantic_link_top_k')::int;
    froms uuid[];
    tos uuid[];
    weights float8[];
BEGIN
    IF neighbours = 0 AND top_k = 0 THEN
        RETURN;
    END IF;
    -- temporal: each new unit to its nearest units in time (the date it is filed under,
    -- hindsight._effective_date) of its bank and fact type, `neighbours` before and after,
    -- weight max(0.3, 1 - hours apart / 24), in both directions (the temporal arm walks
    -- outgoing links). The neighbours' bank is the constant, not n.bank_id: on Citus a correlated bank
    -- reached every shard.
    SELECT array_agg(t.a), array_agg(t.b), array_agg(t.w) INTO froms, tos, weights
    FROM (
    SELECT d.a, d.b, max(p.w) AS w
    FROM (
        SELECT n.id AS a, nb.id AS b, greatest(0.3, 1 - abs(extract(epoch FROM nb.t - n.t)) / 3600 / 24) AS w
        FROM (SELECT u.bank_id, u.id, u.fact_type,
                     hindsight._effective_date(u.occurred_start, u.occurred_end, u.mentioned_at) AS t
              FROM hindsight.memory_units u
              WHERE u.bank_id = _link_units.bank_id AND u.id = ANY (unit_ids)) n
        CROSS JOIN LATERAL (
            (SELECT m.id, hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at) AS t
             FROM hindsight.memory_units m
             WHERE m.bank_id = _link_units.bank_id AND m.fact_type = n.fact_type AND m.id <> n.id
               AND hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at) <= n.t
             ORDER BY hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at) DESC, m.id
             LIMIT neighbours)
            UNION ALL
            (SELECT m.id, hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at)
             FROM hindsight.memory_units m
             WHERE m.bank_id = _link_units.bank_id AND m.fact_type = n.fact_type
               AND hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at) > n.t
             ORDER BY hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at), m.id
             LIMIT neighbours)
        ) nb
        WHERE n.t IS NOT NULL
    ) p
    CROSS JOIN LATERAL (VALUES (p.a, p.b), (p.b, p.a)) AS d(a, b)
    GROUP BY d.a, d.b) t;
    PERFORM hindsight._insert_links(_link_units.bank_id, 'temporal', froms, tos, weights);

    -- semantic: each new unit to its top_k nearest units by cosine, kept at
    -- similarity >= semantic_link_min_similarity, weight = the similarity.
    IF top_k = 0 THEN
        RETURN;
    END IF;
    IF semantic_path = 'hnsw' THEN
        PERFORM hindsight._semantic_links_hnsw(bank_id, unit_ids, top_k,
                                               (config->>'semantic_link_min_similarity')::float8);
    ELSE
        -- A small bank is scanned exactly, once for all new units (not once per unit).
        SELECT array_agg(r.a), array_agg(r.b), array_agg(least(1.0, r.sim)) INTO froms, tos, weights
        FROM (SELECT p.a, p.b, p.sim, row_number() OVER (PARTITION BY p.a ORDER BY p.sim DESC, p.b) AS rn
              FROM (SELECT n.id AS a, m.id AS b, 1 - (m.embedding <=> n.embedding) AS sim
                    FROM (SELECT u.id, u.embedding FROM hindsight.memory_units u
                          WHERE u.bank_id = _link_units.bank_id AND u.id = ANY (unit_ids)) n
                    CROSS JOIN hindsight.memory_units m
                    WHERE m.bank_id = _link_units.bank_id AND m.id <> n.id) p
              WHERE p.sim >= (config->>'semantic_link_min_similarity')::float8) r
        WHERE r.rn <= top_k;
        PERFORM hindsight._insert_links(_link_units.bank_id, 'semantic', froms, tos, weights);
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._link_units(text, uuid[], jsonb, text) IS
    'Links new units of a bank: temporal (temporal_link_neighbours nearest before and after in time, same fact '
    'type, weight max(0.3, 1 - hours/24), both directions) and semantic (semantic_link_top_k nearest by cosine '
    'with similarity >= semantic_link_min_similarity, weight = similarity), the keys read from config (the bank''s '
    'effective config, hindsight.bank_config, read once by the caller); semantic_path (hindsight._semantic_path: '
    'hnsw or exact) says how the nearest units are searched.';
