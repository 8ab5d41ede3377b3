-- The four retrieval arms. Each returns its hits ranked 1..n (hindsight._arm_hit[])
-- and applies the same filters: bank, fact types, tags.

CREATE OR REPLACE FUNCTION hindsight._semantic_arm(
    bank_id text,
    query_embedding vector,
    types text[],
    tags text[],
    tags_match text,
    recall_budget int,
    semantic_path text
)
RETURNS hindsight._arm_hit[]
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
SET hnsw.ef_search = 40
SET hnsw.iterative_scan = off
SET enable_seqscan = on
SET enable_bitmapscan = on
SET enable_sort = on
SET jit = off
AS $$
DECLARE
    hits hindsight._arm_hit[];
    plain_ef int;
    plain bool;
    sql text;
BEGIN
    -- jit off: the disabled sort below adds 1e10 to the plan's cost, which would set off JIT
    -- compilation (about 180 ms) on every call of a few-millisecond query.
    -- Through the shared HNSW index for a bank that is large and a large share of
    -- the table (semantic_path: hindsight._semantic_path's answer), with an iterative scan so the bank
    -- filter still fills the LIMIT; scans and sorts off so the planner takes the
    -- index. Should the scan stop short (hnsw.max_scan_tuples, or filters on
    -- types and tags), the exact path answers instead. Every setting holds for
    -- this call only: the function's SET clauses restore the caller's values.
    IF semantic_path = 'hnsw' THEN
        -- A bank whose plain scan fits ef_search's ceiling (hindsight._plain_ef_search: ef_search = budget /
        -- share <= 1,000; at the mid budget, a bank of 30 % of the table or more) fills the LIMIT from a
        -- plain scan: the candidate list holds about budget of the bank's units, and a question about a bank
        -- finds its own units nearest, so the scan nearly always fills it, at less work than an iterative
        -- scan and nearer the exact answer (the 100,000-unit latency bank, 54 % of the table: 8.5 against
        -- 11.6 ms, 77 against 61 % of the exact 300 nearest; a one-bank database: 4.3 against 8.5 ms). Any
        -- other bank, or a plain scan that falls short, walks on with the iterative scan.
        plain_ef := hindsight._plain_ef_search(bank_id, recall_budget);
        plain := plain_ef IS NOT NULL;
        PERFORM set_config('hnsw.ef_search', coalesce(plain_ef, least(recall_budget, 1000))::text, true);
        PERFORM set_config('hnsw.iterative_scan', CASE WHEN plain THEN 'off' ELSE 'strict_order' END, true);
        PERFORM set_config('enable_seqscan', 'off', true);
        PERFORM set_config('enable_bitmapscan', 'off', true);
        PERFORM set_config('enable_sort', 'off', true);
        sql := $sql$
            SELECT coalesce(array_agg(ROW('semantic', s.id, s.rn, s.score)::hindsight._arm_hit ORDER BY s.rn), '{}')
            FROM (SELECT n.id, n.score, row_number() OVER (ORDER BY n.score DESC, n.id)::int AS rn
                  FROM (SELECT u.id, 1 - (u.embedding <=> $2) AS score
                        FROM hindsight.memory_units u
                        WHERE u.bank_id = $1
                          AND ($3::text[] IS NULL OR u.fact_type = ANY ($3))
                          AND hindsight._tags_match(u.tags, $4, $5)
                        ORDER BY u.embedding <=> $2
                        LIMIT $6) n) s
        $sql$;
        EXECUTE sql
        INTO hits
        USING bank_id, query_embedding, types, tags, tags_match, recall_budget;
        IF cardinality(hits) < recall_budget AND plain THEN
            PERFORM set_config('hnsw.ef_search', least(recall_budget, 1000)::text, true);
            PERFORM set_config('hnsw.iterative_scan', 'strict_order', true);
            EXECUTE sql INTO hits USING bank_id, query_embedding, types, tags, tags_match, recall_budget;
        END IF;
        IF cardinality(hits) >= recall_budget THEN
            RETURN hits;
        END IF;
        PERFORM set_config('enable_seqscan', 'on', true);
        PERFORM set_config('enable_bitmapscan', 'on', true);
        PERFORM set_config('enable_sort', 'on', true);
    END IF;
    -- Exact: the similarity (one minus the distance) is not an index ordering, so the bank's units
    -- come through its primary key prefix and a top-N sort ranks them; ordered by the score it returns,
    -- each unit's distance (about 0.3 us of its 0.7-0.9) is computed once, not again for the sort key.
    SELECT coalesce(array_agg(ROW('semantic', s.id, s.rn, s.score)::hindsight._arm_hit ORDER BY s.rn), '{}')
    INTO hits
    FROM (SELECT n.id, n.score, row_number() OVER (ORDER BY n.score DESC, n.id)::int AS rn
          FROM (SELECT u.id, 1 - (u.embedding <=> query_embedding) AS score
                FROM hindsight.memory_units u
                WHERE u.bank_id = _semantic_arm.bank_id
                  AND (types IS NULL OR u.fact_type = ANY (types))
                  AND hindsight._tags_match(u.tags, _semantic_arm.tags, tags_match)
                ORDER BY score DESC, u.id
                LIMIT recall_budget) n) s;
    RETURN hits;
END
$$;
COMMENT ON FUNCTION hindsight._semantic_arm(text, vector, text[], text[], text, int, text) IS
    'Semantic arm: the recall_budget units nearest to the query embedding by cosine distance (score = cosine '
    'similarity): through the shared HNSW index (ef_search = min(recall_budget, 1000), strict-order iterative scan; '
    'first a plain scan at ef_search = recall_budget / the bank''s share of all units where that is at most 1,000, '
    'hindsight._plain_ef_search) '
    'when semantic_path (the bank''s hindsight._semantic_path) is hnsw, else, or when that scan returns fewer rows, '
    'exactly.';

CREATE OR REPLACE FUNCTION hindsight._native_keyword_arm(
    bank_id text,
    keyword_query tsquery,
    types text[],
    tags text[],
    tags_match text,
    recall_budget int
)
RETURNS hindsight._arm_hit[]
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
AS $$
#variable_conflict use_column
BEGIN
    -- Ties are frequent (ts_rank_cd knows no term rarity: a speaker's name matches
    -- half a conversation). They go to the longer text, then by text, so the order
    -- does not depend on random unit ids. Longer first, because a longer memory
    -- says more: on the LoCoMo dev split (760 questions) Recall@10 of the full
    -- pipeline is 0.659 with longer-first and 0.601 with shorter-first.
    RETURN (
        SELECT coalesce(array_agg(ROW('keyword', s.id, s.rn, s.score)::hindsight._arm_hit ORDER BY s.rn), '{}')
        FROM (SELECT n.id, n.score, row_number() OVER (ORDER BY n.score DESC, n.len DESC, n.text, n.id)::int AS rn
              FROM (SELECT u.id, ts_rank_cd(u.search_vector, keyword_query)::float8 AS score,
                           length(u.text) AS len, u.text
                    FROM hindsight.memory_units u
                    WHERE u.bank_id = _native_keyword_arm.bank_id
                      AND u.search_vector @@ keyword_query
                      AND (types IS NULL OR u.fact_type = ANY (types))
                      AND hindsight._tags_match(u.tags, _native_keyword_arm.tags, tags_match)
                    ORDER BY 2 DESC, 3 DESC, 4, u.id
                    LIMIT recall_budget) n) s
    );
END
$$;
COMMENT ON FUNCTION hindsight._native_keyword_arm(text, tsquery, text[], text[], text, int) IS
    'Keyword arm: units matching the tsquery (GIN on search_vector), ranked by ts_rank_cd, ties to the longer '
    'text, LIMIT recall_budget.';

CREATE OR REPLACE FUNCTION hindsight._bm25_scores(
    bank_id text,
    terms text[],
    weights float8[],
    bases float8[],
    per_lengths float8[],
    k int
)
RETURNS TABLE (unit_id uuid, score float8, doc_length int)
LANGUAGE c STABLE
AS 'MODULE_PATHNAME', 'hindsight_bm25_scores';
COMMENT ON FUNCTION hindsight._bm25_scores(text, text[], float8[], float8[], float8[], int) IS
    'BM25 scorer in C (src/bm25.c): for each term, every _bm25_postings row of the bank adds weights[i] * tf / (tf + '
    'bases[i] + per_lengths[i] * doc_length) to its unit''s score (scores rounded to 1e-12); the k best by score, '
    'doc_length (longer first) and unit_id, in that order, or with k NULL every unit scored, in no order. Reads the '
    'local table through its primary key (privileges and row-level security honoured). Errors: 22023 when the arrays '
    'differ in length or k is outside [0, 1,000,000]; 22004 for a NULL argument or element; 22012 and 22003 where a '
    'score divides by zero or overflows, as the SQL form would.';

CREATE OR REPLACE FUNCTION hindsight._bm25_arm(
    bank_id text,
    terms text[],
    types text[],
    tags text[],
    tags_match text,
    recall_budget int,
    config jsonb
)
RETURNS hindsight._arm_hit[]
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
AS $$
#variable_conflict use_column
DECLARE
    q_terms text[];
    q_weights float8[];
    q_bases float8[];
    q_per_lengths float8[];
    filtered bool := types IS NOT NULL OR coalesce(cardinality(tags), 0) > 0;
BEGIN
    -- Okapi BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework:
    -- BM25 and Beyond", 2009) from the bank's term statistics:
    --   score(d) = sum over query terms t of idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))
    --   idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)),  k1 = 1.2, b = 0 by default (0.75 is the textbook value)
    -- over at most bm25_max_terms (16) of the query's terms, the rarest first.
    -- Only the postings of those terms are read. Ties go to the longer unit, then (among
    -- the recall_budget kept) by text.
    -- The constants are folded per term first, so each posting costs one
    -- multiply-add and one division.
    SELECT array_agg(q.term ORDER BY q.df, q.term),
           array_agg(ln(1 + (q.n - q.df + 0.5) / (q.df + 0.5)) * (q.k1 + 1) ORDER BY q.df, q.term),  -- idf * (k1 + 1)
           array_agg(q.k1 * (1 - q.b) ORDER BY q.df, q.term),                                        -- k1 * (1 - b)
           array_agg(q.k1 * q.b / greatest(q.avgdl, 1e-9) ORDER BY q.df, q.term)                     -- k1 * b / avgdl
    INTO q_terms, q_weights, q_bases, q_per_lengths
    FROM (SELECT t.term, t.df, (config->>'bm25_k1')::float8 AS k1, (config->>'bm25_b')::float8 AS b,
                 c.unit_count::float8 AS n, c.total_length::float8 / greatest(c.unit_count, 1) AS avgdl
          FROM hindsight._bm25_terms t
          JOIN hindsight._bank_counts c ON c.bank_id = t.bank_id
          WHERE t.bank_id = _bm25_arm.bank_id AND t.term = ANY (terms)
          ORDER BY t.df, t.term
          LIMIT (config->>'bm25_max_terms')::int) q;
    IF q_terms IS NULL THEN
        RETURN '{}';
    END IF;
    IF NOT hindsight._is_distributed('hindsight._bm25_postings') THEN
        -- Postings in this database: the C scorer sums them (about a fifth of the SQL form's cost a
        -- posting) and, without filters, keeps the recall_budget best itself; with filters it returns
        -- every unit scored and the filter below runs before the LIMIT, as in the SQL form.
        RETURN (
            WITH top AS (
                SELECT sc.unit_id, sc.score, sc.doc_length
                FROM hindsight._bm25_scores(_bm25_arm.bank_id, q_terms, q_weights, q_bases, q_per_lengths,
                                            CASE WHEN filtered THEN NULL ELSE recall_budget END) sc
                WHERE NOT filtered
                   OR EXISTS (SELECT FROM hindsight.memory_units u
                              WHERE u.bank_id = _bm25_arm.bank_id AND u.id = sc.unit_id
                                AND (types IS NULL OR u.fact_type = ANY (types))
                                AND hindsight._tags_match(u.tags, _bm25_arm.tags, tags_match))
                ORDER BY sc.score DESC, sc.doc_length DESC, sc.unit_id
                LIMIT recall_budget
            )
            -- exact ties among them (same terms, counts and length: frequent without length
            -- normalisation) are ranked by text, as in the native backend, not by unit id
            SELECT coalesce(array_agg(ROW('keyword', r.unit_id, r.rn, r.score)::hindsight._arm_hit ORDER BY r.rn), '{}')
            FROM (SELECT t.unit_id, t.score,
                         row_number() OVER (ORDER BY t.score DESC, t.doc_length DESC, u.text, t.unit_id)::int AS rn
                  FROM top t
                  JOIN hindsight.memory_units u ON u.bank_id = _bm25_arm.bank_id AND u.id = t.unit_id) r
        );
    END IF;
    -- Citus: the postings live in the workers' shards, which the C scorer cannot read; the same
    -- sums in SQL, pushed down to the bank's shard.
    RETURN (
        WITH scored AS (
            -- rounded to 1e-12: a sum's last bit depends on the order its terms arrive in, which
            -- depends on the plan and the table's layout, and must not decide a tie
            SELECT p.unit_id, round(sum(q.weight * p.tf / (p.tf + q.base + q.per_length * p.doc_length)) * 1e12) / 1e12
                       AS score,
                   max(p.doc_length) AS doc_length
            FROM unnest(q_terms, q_weights, q_bases, q_per_lengths) AS q(term, weight, base, per_length)
            JOIN hindsight._bm25_postings p ON p.bank_id = _bm25_arm.bank_id AND p.term = q.term
            GROUP BY p.unit_id
        ),
        top AS (  -- a top-N sort: the ranks are numbered after the LIMIT
            SELECT sc.unit_id, sc.score, sc.doc_length
            FROM scored sc
            WHERE NOT filtered
               OR EXISTS (SELECT FROM hindsight.memory_units u
                          WHERE u.bank_id = _bm25_arm.bank_id AND u.id = sc.unit_id
                            AND (types IS NULL OR u.fact_type = ANY (types))
                            AND hindsight._tags_match(u.tags, _bm25_arm.tags, tags_match))
            ORDER BY sc.score DESC, sc.doc_length DESC, sc.unit_id
            LIMIT recall_budget
        )
        SELECT coalesce(array_agg(ROW('keyword', r.unit_id, r.rn, r.score)::hindsight._arm_hit ORDER BY r.rn), '{}')
        FROM (SELECT t.unit_id, t.score,
                     row_number() OVER (ORDER BY t.score DESC, t.doc_length DESC, u.text, t.unit_id)::int AS rn
              FROM top t
              JOIN hindsight.memory_units u ON u.bank_id = _bm25_arm.bank_id AND u.id = t.unit_id) r
    );
END
$$;
COMMENT ON FUNCTION hindsight._bm25_arm(text, text[], text[], text[], text, int, jsonb) IS
    'Keyword arm, bm25 backend (the default): Okapi BM25 (k1 = bm25_k1 1.2, b = bm25_b 0 by default, idf = ln(1 + (N - df + 0.5) / '
    '(df + 0.5))) over the query''s rarest bm25_max_terms (16) terms, from _bm25_terms / _bm25_postings (summed by '
    'hindsight._bm25_scores, in SQL where Citus distributes the postings); ties to '
    'the longer unit, then by text among the units kept (scores rounded to 1e-12); LIMIT recall_budget.';

CREATE OR REPLACE FUNCTION hindsight._graph_expand(
    bank_id text,
    from_ids uuid[],
    exclude_ids uuid[],
    types text[],
    tags text[],
    tags_match text,
    recall_budget int,
    entity_fanout int,
    max_entity_units float8,
    hop_entity_rows int
)
RETURNS TABLE (unit_id uuid, shared_entities int, semantic_weight float8, causal_weight float8)
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
AS $$
#variable_conflict use_column
BEGIN
    -- One hop from from_ids, three ways, each limited to recall_budget candidates:
    -- units sharing entities (at most entity_fanout units per entity, counted as
    -- distinct shared entities), semantic links in both directions (highest
    -- weight), outgoing causal links (highest weight). An entity linked to more
    -- than max_entity_units units is common (a speaker on every turn, the user
    -- in every fact) and is not evidence of anything: it is not followed.
    -- The hop reads at most hop_entity_rows unit-entity rows in all, spent on the rarest entities
    -- first (fewest units: the most telling shared entity), each up to entity_fanout; the last one
    -- taken gets what is left. The hop's cost is bounded by that budget, not by the bank.
    RETURN QUERY
        WITH direct AS (
            SELECT DISTINCT ue.entity_id, en.parent_id
            FROM hindsight.unit_entities ue
            JOIN hindsight.entities en ON en.bank_id = ue.bank_id AND en.id = ue.entity_id
            WHERE ue.bank_id = _graph_expand.bank_id AND ue.unit_id = ANY (from_ids)
        ),
        seed_entities AS (  -- the seeds' entities, their parents and their versions ("PostgreSQL" <-> "PostgreSQL 11")
            SELECT en.id AS entity_id, en.mention_count
            FROM hindsight.entities en
            WHERE en.bank_id = _graph_expand.bank_id AND en.mention_count <= max_entity_units
              AND (en.id IN (SELECT d.entity_id FROM direct d) OR en.id IN (SELECT d.parent_id FROM direct d)
                   OR en.parent_id IN (SELECT d.entity_id FROM direct d))
        ),
        budgeted AS (  -- rows each entity may read: rarest first, until hop_entity_rows are spent
            SELECT b.entity_id, least(entity_fanout::bigint, hop_entity_rows - b.spent) AS take
            FROM (SELECT e.entity_id,
                         coalesce(sum(least(e.mention_count, entity_fanout)) OVER (
                             ORDER BY e.mention_count, e.entity_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
                             0) AS spent
                  FROM seed_entities e) b
            WHERE b.spent < hop_entity_rows
        ),
        by_entity AS (
            -- each entity lists a unit once, so count(*) counts distinct shared entities
            SELECT x.unit_id, count(*)::int AS shared
            FROM budgeted e
            CROSS JOIN LATERAL (
                SELECT ue.unit_id FROM hindsight.unit_entities ue
                WHERE ue.bank_id = _graph_expand.bank_id AND ue.entity_id = e.entity_id
                  AND ue.unit_id NOT IN (SELECT unnest(exclude_ids))  -- one hash, not a scan of the array per row
                ORDER BY ue.unit_id
                LIMIT e.take) x
            GROUP BY x.unit_id
        ),
        entity_hits AS (
            SELECT b.unit_id, b.shared
            FROM by_entity b
            WHERE (types IS NULL AND coalesce(cardinality(_graph_expand.tags), 0) = 0)
               OR EXISTS (SELECT FROM hindsight.memory_units u
                          WHERE u.bank_id = _graph_expand.bank_id AND u.id = b.unit_id
                            AND (types IS NULL OR u.fact_type = ANY (types))
                            AND hindsight._tags_match(u.tags, _graph_expand.tags, tags_match))
            ORDER BY b.shared DESC, b.unit_id
            LIMIT recall_budget
        ),
        -- the units are read for the filters only when there are filters (as entity_hits does)
        semantic_hits AS (
            SELECT n.unit_id, max(n.weight) AS weight
            FROM (SELECT l.to_unit_id AS unit_id, l.weight FROM hindsight.memory_links l
                  WHERE l.bank_id = _graph_expand.bank_id AND l.link_type = 'semantic' AND l.from_unit_id = ANY (from_ids)
                  UNION ALL
                  SELECT l.from_unit_id, l.weight FROM hindsight.memory_links l
                  WHERE l.bank_id = _graph_expand.bank_id AND l.link_type = 'semantic' AND l.to_unit_id = ANY (from_ids)) n
            WHERE NOT n.unit_id = ANY (exclude_ids)
              AND ((types IS NULL AND coalesce(cardinality(_graph_expand.tags), 0) = 0)
                   OR EXISTS (SELECT FROM hindsight.memory_units u
                              WHERE u.bank_id = _graph_expand.bank_id AND u.id = n.unit_id
                                AND (types IS NULL OR u.fact_type = ANY (types))
                                AND hindsight._tags_match(u.tags, _graph_expand.tags, tags_match)))
            GROUP BY n.unit_id
            ORDER BY 2 DESC, 1
            LIMIT recall_budget
        ),
        causal_hits AS (
            SELECT l.to_unit_id AS unit_id, max(l.weight) AS weight
            FROM hindsight.memory_links l
            WHERE l.bank_id = _graph_expand.bank_id AND l.from_unit_id = ANY (from_ids)
              AND l.link_type IN ('causes', 'caused_by', 'enables', 'prevents')
              AND NOT l.to_unit_id = ANY (exclude_ids)
              AND ((types IS NULL AND coalesce(cardinality(_graph_expand.tags), 0) = 0)
                   OR EXISTS (SELECT FROM hindsight.memory_units u
                              WHERE u.bank_id = l.bank_id AND u.id = l.to_unit_id
                                AND (types IS NULL OR u.fact_type = ANY (types))
                                AND hindsight._tags_match(u.tags, _graph_expand.tags, tags_match)))
            GROUP BY l.to_unit_id
            ORDER BY 2 DESC, 1
            LIMIT recall_budget
        )
        SELECT unit_id, coalesce(e.shared, 0), coalesce(s.weight, 0.0), coalesce(c.weight, 0.0)
        FROM entity_hits e
        FULL JOIN semantic_hits s USING (unit_id)
        FULL JOIN causal_hits c USING (unit_id);
END
$$;
COMMENT ON FUNCTION hindsight._graph_expand(text, uuid[], uuid[], text[], text[], text, int, int, float8, int) IS
    'One hop of the graph arm from from_ids (excluding exclude_ids): per reached unit, the number of distinct '
    'entities it shares with from_ids, its highest semantic link weight (either direction) and its highest '
    'outgoing causal link weight (causes, caused_by, enables, prevents). Each way keeps recall_budget units. '
    'Entities linked to more than max_entity_units units are not followed; the entities followed read at most '
    'entity_fanout units each and hop_entity_rows in all, the rarest entities first.';

CREATE OR REPLACE FUNCTION hindsight._graph_arm(
    bank_id text,
    query_embedding vector,
    semantic_hits hindsight._arm_hit[],
    types text[],
    tags text[],
    tags_match text,
    recall_budget int,
    config jsonb
)
RETURNS hindsight._arm_hit[]
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    seeds uuid[];
    frontier uuid[];
    hop int := 1;
    -- every unit reached, in parallel arrays: id, activation, cosine similarity to the query
    -- (a hop excludes what earlier hops reached, so a unit keeps the activation of its first hop)
    found_ids uuid[] := '{}';
    found_activations float8[] := '{}';
    found_similarities float8[] := '{}';
    step_ids uuid[];
    step_activations float8[];
    step_similarities float8[];
    floor_similarity float8 := (config->>'graph_semantic_floor')::float8;
    decay float8 := 1.0;
    max_entity_units float8;
BEGIN
    -- Seeds: the best semantic hits with cosine similarity >= graph_seed_min_similarity.
    seeds := ARRAY(SELECT h.unit_id FROM unnest(semantic_hits) h
                   WHERE h.score >= (config->>'graph_seed_min_similarity')::float8
                   ORDER BY h.rank LIMIT (config->>'graph_seed_limit')::int);
    IF cardinality(seeds) = 0 THEN
        RETURN '{}';
    END IF;
    -- Common entities: linked to more than graph_common_entity_share of the
    -- bank's units, and to more than graph_common_entity_min_units units.
    SELECT greatest((_graph_arm.config->>'graph_common_entity_min_units')::float8,
                    (_graph_arm.config->>'graph_common_entity_share')::float8 * coalesce(max(b.unit_count), 0))
    INTO max_entity_units
    FROM hindsight._bank_counts b WHERE b.bank_id = _graph_arm.bank_id;
    frontier := seeds;
    WHILE hop <= (config->>'graph_max_hops')::int AND cardinality(frontier) > 0 LOOP
        -- activation = tanh(0.5 * shared entities) + semantic weight + causal weight,
        -- times graph_hop_decay per hop beyond the first. Only candidates with real
        -- evidence stay: a shared entity, a causal link, or (reached through a
        -- semantic link only) a cosine similarity to the query >= graph_semantic_floor.
        SELECT coalesce(array_agg(x.unit_id ORDER BY x.activation DESC, x.similarity DESC, x.unit_id), '{}'),
               coalesce(array_agg(x.activation ORDER BY x.activation DESC, x.similarity DESC, x.unit_id), '{}'),
               coalesce(array_agg(x.similarity ORDER BY x.activation DESC, x.similarity DESC, x.unit_id), '{}')
        INTO step_ids, step_activations, step_similarities
        FROM (SELECT g.unit_id,
                     decay * (tanh(0.5 * g.shared_entities) + g.semantic_weight + g.causal_weight) AS activation,
                     -- each reached unit's vector read by its key, a subplan per row: as a join, a cached generic
                     -- plan may hash the whole bank's units to meet the few hundred a hop reaches
                     CASE WHEN query_embedding IS NULL THEN 0
                          ELSE 1 - (SELECT u.embedding <=> query_embedding FROM hindsight.memory_units u
                                    WHERE u.bank_id = _graph_arm.bank_id AND u.id = g.unit_id) END AS similarity,
                     g.shared_entities, g.causal_weight
              FROM hindsight._graph_expand(bank_id, frontier, seeds || found_ids, types, tags, tags_match, recall_budget,
                                           (config->>'graph_entity_fanout')::int, max_entity_units,
                                           (config->>'graph_hop_entity_rows')::int) g
              -- kept a subquery, so that each unit's cosine is read once: flattened into this statement, the
              -- subplan ran once for each use (the filter and the three aggregates' ORDER BY)
              OFFSET 0) x
        WHERE x.shared_entities > 0 OR x.causal_weight > 0
           OR (query_embedding IS NOT NULL AND x.similarity >= floor_similarity);
        found_ids := found_ids || step_ids;
        found_activations := found_activations || step_activations;
        found_similarities := found_similarities || step_similarities;
        -- the next hop starts from this hop's best graph_seed_limit units (the step is in that order),
        -- as the first did from the seeds
        frontier := step_ids[1:(config->>'graph_seed_limit')::int];
        hop := hop + 1;
        decay := decay * (config->>'graph_hop_decay')::float8;
    END LOOP;
    -- Ties in activation (common: many units share one entity) go to the unit
    -- closer to the query.
    RETURN (SELECT coalesce(array_agg(ROW('graph', a.id, a.rn, a.activation)::hindsight._arm_hit ORDER BY a.rn), '{}')
            FROM (SELECT f.id, f.activation,
                         row_number() OVER (ORDER BY f.activation DESC, f.similarity DESC, f.id)::int AS rn
                  FROM unnest(found_ids, found_activations, found_similarities) AS f(id, activation, similarity)) a
            WHERE a.rn <= recall_budget);
END
$$;
COMMENT ON FUNCTION hindsight._graph_arm(text, vector, hindsight._arm_hit[], text[], text[], text, int, jsonb) IS
    'Graph arm (link expansion, Hindsight TEMPR): from up to graph_seed_limit (20) semantic hits with cosine '
    '>= graph_seed_min_similarity (0.79; all-MiniLM-L6-v2 0.3), expand through shared entities, semantic and causal links; activation '
    '= tanh(0.5 * shared entities) + semantic weight + causal weight, in [0, 3]; hops beyond the first '
    '(graph_max_hops, default 2) start from the previous hop''s best graph_seed_limit units and are multiplied by '
    'graph_hop_decay (0.5) per hop. Candidates need evidence: a '
    'shared entity, a causal link, or cosine to the query >= graph_semantic_floor (0.79; MiniLM 0.3). Entities linked to more '
    'than max(graph_common_entity_min_units (20), graph_common_entity_share (0.1) * bank units) units are not '
    'followed; a hop reads at most graph_hop_entity_rows (2000) unit-entity rows, the rarest entities first. '
    'Ranked by activation, '
    'ties by cosine to the query, LIMIT recall_budget.';

CREATE OR REPLACE FUNCTION hindsight._temporal_arm(
    bank_id text,
    query_embedding vector,
    temporal_window tstzrange,
    types text[],
    tags text[],
    tags_match text,
    recall_budget int,
    config jsonb
)
RETURNS hindsight._arm_hit[]
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
-- the window's pool is planned for this bank and this window each call: a cached generic plan is the average
-- bank's and window's, and read a large bank's month through the wrong index (100,000 units among 185,000 in 200
-- banks: 68 ms a windowed query, 12 with its own plan; bench/latency.py)
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    entry_ids uuid[];
    entry_scores float8[];
    buckets int := (config->>'temporal_buckets')::int;
    window_seconds float8 := extract(epoch FROM upper(temporal_window) - lower(temporal_window));
    scan_budget int := (config->>'temporal_scan_budget')::int;
    slices int := 8 * buckets;
    -- the window's first and last instants (a bound it excludes is one microsecond in)
    first_at timestamptz := lower(temporal_window) + CASE WHEN lower_inc(temporal_window) THEN interval '0'
                                                          ELSE interval '1 microsecond' END;
    last_at timestamptz := upper(temporal_window) - CASE WHEN upper_inc(temporal_window) THEN interval '0'
                                                         ELSE interval '1 microsecond' END;
    slice_seconds float8 := extract(epoch FROM last_at - first_at) / slices;
    sampled bool;
BEGIN
    -- A window whose units' dates fit in temporal_scan_budget is read whole. A larger one is read
    -- through memory_units_effective_idx in date order: 8 * temporal_buckets equal slices, each cut
    -- at ceil(temporal_scan_budget / slices) units (the earliest of the slice), so that the pool's
    -- cost is bounded by the budget, not by how much of the bank the window holds. The count reads
    -- that index alone and stops at the budget.
    sampled := (SELECT count(*) FROM (
                    SELECT FROM hindsight.memory_units u
                    WHERE u.bank_id = _temporal_arm.bank_id
                      AND hindsight._effective_date(u.occurred_start, u.occurred_end, u.mentioned_at)
                          BETWEEN first_at AND last_at
                    ORDER BY hindsight._effective_date(u.occurred_start, u.occurred_end, u.mentioned_at)
                    LIMIT scan_budget + 1) x) > scan_budget;
    -- Pool: units whose time overlaps the window (their occurred range overlaps
    -- it, or mentioned_at / occurred_start / occurred_end falls in it), with
    -- cosine similarity >= temporal_min_similarity, best first, at most
    -- temporal_pool_size. Coverage: the window in temporal_buckets equal slices
    -- by effective date; entry points round-robin over the slices (each slice's
    -- best, then each slice's second, ...), at most temporal_entry_points.
    -- An entry point's score is its temporal proximity.
    WITH in_window AS MATERIALIZED (  -- each unit's cosine computed once, its dates only for the pool's
        SELECT u.id, u.occurred_start, u.occurred_end, u.mentioned_at,
               CASE WHEN query_embedding IS NULL THEN 0.0 ELSE 1 - (u.embedding <=> query_embedding) END AS similarity
        FROM hindsight.memory_units u
        WHERE NOT sampled AND u.bank_id = _temporal_arm.bank_id
          AND hindsight._time_span(u.occurred_start, u.occurred_end, u.mentioned_at) && temporal_window
          AND (types IS NULL OR u.fact_type = ANY (types))
          AND hindsight._tags_match(u.tags, _temporal_arm.tags, tags_match)
        UNION ALL
        SELECT u.id, u.occurred_start, u.occurred_end, u.mentioned_at,
               CASE WHEN query_embedding IS NULL THEN 0.0 ELSE 1 - (u.embedding <=> query_embedding) END
        FROM (SELECT first_at + slice_seconds * k * interval '1 second' AS first,
                     CASE WHEN k = slices - 1 THEN last_at
                          ELSE first_at + slice_seconds * (k + 1) * interval '1 second' - interval '1 microsecond' END
                         AS last
              FROM generate_series(0, slices - 1) k
              WHERE sampled) s
        CROSS JOIN LATERAL (
            SELECT v.id, v.occurred_start, v.occurred_end, v.mentioned_at, v.embedding
            FROM hindsight.memory_units v
            WHERE v.bank_id = _temporal_arm.bank_id
              AND hindsight._effective_date(v.occurred_start, v.occurred_end, v.mentioned_at) BETWEEN s.first AND s.last
              AND (types IS NULL OR v.fact_type = ANY (types))
              AND hindsight._tags_match(v.tags, _temporal_arm.tags, tags_match)
            ORDER BY hindsight._effective_date(v.occurred_start, v.occurred_end, v.mentioned_at), v.id
            LIMIT ceil(scan_budget::float8 / slices)::int) u
    ),
    pool AS (
        SELECT w.id, w.similarity,
               hindsight._effective_date(w.occurred_start, w.occurred_end, w.mentioned_at) AS unit_date,
               hindsight._proximity(hindsight._best_date(w.occurred_start, w.occurred_end, w.mentioned_at),
                                    temporal_window) AS proximity
        FROM (SELECT * FROM in_window i
              WHERE query_embedding IS NULL OR i.similarity >= (config->>'temporal_min_similarity')::float8
              ORDER BY i.similarity DESC, i.id
              LIMIT (config->>'temporal_pool_size')::int) w
    ),
    bucketed AS (
        SELECT p.*, row_number() OVER (PARTITION BY p.bucket ORDER BY p.similarity DESC, p.id) AS turn
        FROM (SELECT pool.*,
                     CASE WHEN window_seconds <= 0 THEN 0
                          ELSE greatest(0, least(buckets - 1, floor(
                              extract(epoch FROM pool.unit_date - lower(temporal_window)) / window_seconds * buckets)))
                     END AS bucket
              FROM pool) p
    ),
    entries AS (
        SELECT b.id, b.proximity, row_number() OVER (ORDER BY b.turn, b.bucket) AS o FROM bucketed b
        ORDER BY b.turn, b.bucket
        LIMIT (config->>'temporal_entry_points')::int
    )
    SELECT array_agg(e.id ORDER BY e.o), array_agg(e.proximity ORDER BY e.o)
    INTO entry_ids, entry_scores
    FROM entries e;
    IF entry_ids IS NULL THEN
        RETURN '{}';
    END IF;
    -- Spreading may add units outside the window, never above the units inside it: the ranks
    -- take the window's units first, then by score.
    RETURN (SELECT coalesce(array_agg(ROW('temporal', s.unit_id, s.rn, s.score)::hindsight._arm_hit ORDER BY s.rn), '{}')
            FROM (SELECT t.unit_id, t.score,
                         row_number() OVER (ORDER BY hindsight._time_span(u.occurred_start, u.occurred_end, u.mentioned_at)
                                                         && temporal_window DESC,
                                                     t.score DESC, t.reached)::int AS rn
                  FROM hindsight._temporal_spread(bank_id, entry_ids, entry_scores, temporal_window, types, tags,
                                                  tags_match, recall_budget, config) t
                  JOIN hindsight.memory_units u ON u.bank_id = _temporal_arm.bank_id AND u.id = t.unit_id) s);
END
$$;
COMMENT ON FUNCTION hindsight._temporal_arm(text, vector, tstzrange, text[], text[], text, int, jsonb) IS
    'Temporal arm (Hindsight TEMPR): a pool of units overlapping the window (cosine >= temporal_min_similarity '
    '(0.74; MiniLM 0.1), the best temporal_pool_size (60); a window holding more than temporal_scan_budget (1000) '
    'dated units is read in date order from 8 * temporal_buckets equal slices, the earliest '
    'ceil(temporal_scan_budget / slices) of each), entry points chosen round-robin over temporal_buckets (8) '
    'equal slices of the window (up to temporal_entry_points (10), scored by proximity), then '
    'spreading along temporal and causal links (hindsight._temporal_spread). Ranked the window''s units first, then '
    'by score; LIMIT recall_budget.';

CREATE OR REPLACE FUNCTION hindsight._temporal_spread(
    bank_id text,
    entry_ids uuid[],
    entry_scores float8[],
    temporal_window tstzrange,
    types text[],
    tags text[],
    tags_match text,
    max_nodes int,
    config jsonb
)
RETURNS TABLE (unit_id uuid, score float8, reached int)
LANGUAGE plpython3u STABLE
SET citus.allow_nested_distributed_execution = on
AS $$
hpl = GD.get("hindsight_pl") or plpy.execute("SELECT hindsight._require_python()") and GD["hindsight_pl"]
from hindsight_pl.pipeline import in_database
return in_database.temporal_spread(plpy, GD, bank_id, entry_ids, entry_scores, temporal_window, types, tags,
                                   tags_match, max_nodes, config)
$$;
COMMENT ON FUNCTION hindsight._temporal_spread(text, uuid[], float8[], tstzrange, text[], text[], text, int, jsonb) IS
    'Spreading activation of the temporal arm from its entry points (ids and proximity scores) along temporal '
    'and causal links; see hindsight_pl.recall.spreading.spread for the rule. Returns every reached unit with its score '
    'and the order it was reached in (entries first, in coverage order), which breaks ties.';

CREATE OR REPLACE FUNCTION hindsight._temporal_links(
    bank_id text,
    from_ids uuid[],
    temporal_window tstzrange,
    types text[],
    tags text[],
    tags_match text,
    links_per_node int,
    min_weight float8
)
RETURNS TABLE (from_unit_id text, to_unit_id text, link_type text, weight float8, proximity float8)
LANGUAGE plpgsql STABLE
SET citus.allow_nested_distributed_execution = on
AS $$
#variable_conflict use_column
BEGIN
    -- For each unit of from_ids, its links_per_node strongest outgoing temporal
    -- and causal links of weight >= min_weight, to units that pass the filters;
    -- proximity is NULL for a target without any date.
    RETURN QUERY
        SELECT l.from_unit_id::text, l.to_unit_id::text, l.link_type, l.weight,
               CASE WHEN u.occurred_start IS NULL AND u.occurred_end IS NULL AND u.mentioned_at IS NULL THEN NULL
                    ELSE hindsight._proximity(hindsight._best_date(u.occurred_start, u.occurred_end, u.mentioned_at),
                                              temporal_window) END
        FROM unnest(from_ids) AS f(id)
        CROSS JOIN LATERAL (
            SELECT m.from_unit_id, m.to_unit_id, m.link_type, m.weight FROM hindsight.memory_links m
            WHERE m.bank_id = _temporal_links.bank_id AND m.from_unit_id = f.id
              AND m.link_type IN ('temporal', 'causes', 'caused_by', 'enables', 'prevents') AND m.weight >= min_weight
            ORDER BY m.weight DESC, m.to_unit_id
            LIMIT links_per_node) l
        JOIN hindsight.memory_units u ON u.bank_id = _temporal_links.bank_id AND u.id = l.to_unit_id
        WHERE (types IS NULL OR u.fact_type = ANY (types)) AND hindsight._tags_match(u.tags, _temporal_links.tags, tags_match)
        ORDER BY l.from_unit_id, l.weight DESC, l.to_unit_id;
END
$$;
COMMENT ON FUNCTION hindsight._temporal_links(text, uuid[], tstzrange, text[], text[], text, int, float8) IS
    'Links the temporal arm spreads along: per source unit its strongest outgoing temporal/causal links '
    '(weight >= min_weight, at most links_per_node) to units passing the filters, with the target''s proximity '
    'to the window (NULL when it has no date).';
