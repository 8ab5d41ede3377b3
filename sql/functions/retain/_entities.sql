-- Retain's entity resolution: mentions of names to the bank's entities (docs/retain.md), and the
-- clean-up of entities nothing mentions any more.

CREATE OR REPLACE FUNCTION hindsight._entity_names_compatible(a text, b text)
RETURNS bool
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- Guards of entity resolution, before any score:
    -- 1. names whose tokens with digits differ name different things ("Room 101" /
    --    "Room 102", "UA123" / "UA124", "2023 Tax Return" / "2024 Tax Return");
    -- 2. a name found inside the other but not as whole words ("Uno" in "Bruno")
    --    shares letters, not identity.
    WITH n AS (
        SELECT ' ' || btrim(regexp_replace(lower(a), '[^[:alnum:]]+', ' ', 'g')) || ' ' AS a,
               ' ' || btrim(regexp_replace(lower(b), '[^[:alnum:]]+', ' ', 'g')) || ' ' AS b
    )
    SELECT ARRAY(SELECT m[1] FROM regexp_matches(n.a, '[[:alnum:]]*[0-9][[:alnum:]]*', 'g') m ORDER BY 1)
           = ARRAY(SELECT m[1] FROM regexp_matches(n.b, '[[:alnum:]]*[0-9][[:alnum:]]*', 'g') m ORDER BY 1)
       AND NOT (strpos(btrim(n.a), btrim(n.b)) > 0 AND strpos(n.a, n.b) = 0)
       AND NOT (strpos(btrim(n.b), btrim(n.a)) > 0 AND strpos(n.b, n.a) = 0)
    FROM n
$$;
COMMENT ON FUNCTION hindsight._entity_names_compatible(text, text) IS
    'Whether two entity names may be merged at all: their digit-bearing tokens are equal, and neither is found '
    'inside the other except as whole words. Case and punctuation are ignored.';

CREATE OR REPLACE FUNCTION hindsight._entity_aliases(name text)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- "PostgreSQL" -> {postgresq, postgres, postgre}: a one-word name that ends in capitals after a lower-case
    -- letter is also written without some of them ("Postgres"); a short form has at least four letters.
    -- "Dr Okafor" -> {okafor}: a name after a title (the extractor keeps the title as written) is that name.
    SELECT coalesce(array_agg(a ORDER BY o, length(a) DESC), '{}')
    FROM (
        SELECT lower(left(name, k)) AS a, 1 AS o
        FROM generate_series(4, length(name) - 1) k
        WHERE name !~ '\s' AND substr(name, k + 1) ~ '^[A-Z]+$' AND left(name, k) ~ '[a-z][A-Z]*$'
        UNION ALL
        SELECT lower(regexp_replace(name, '^(mr|mrs|ms|dr|prof|sir)\.?\s+', '', 'i')), 2
        WHERE name ~* '^(mr|mrs|ms|dr|prof|sir)\.?\s+\S'
    ) aliases
$$;
COMMENT ON FUNCTION hindsight._entity_aliases(text) IS
    'The other forms (lower case) entity resolution takes for the same entity: the short forms of a one-word '
    'name ending in capitals ("PostgreSQL" -> {postgresq, postgres, postgre}) and a name without its title '
    '("Dr Okafor" -> {okafor}); empty for other names.';

CREATE OR REPLACE FUNCTION hindsight._entity_version_base(name text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    -- "PostgreSQL 11" -> "PostgreSQL", "Python 3.12" -> "Python", "Falcon 1.2" -> "Falcon"; not "Room 101"
    -- (a numbered thing, not a version): a version is a number with a dot, or a number after a name written
    -- in mixed case (a product).
    SELECT CASE WHEN name ~ '^\S.*\s+v?[0-9]+\.[0-9][0-9.]*$'
                  OR name ~ '^\S*[a-z][A-Z]\S*(\s+\S+)*\s+v?[0-9]+$'
                THEN btrim(regexp_replace(name, '\s+v?[0-9][0-9.]*$', '')) END
$$;
COMMENT ON FUNCTION hindsight._entity_version_base(text) IS
    'The name a versioned name is a version of ("PostgreSQL 11" -> "PostgreSQL", "Python 3.12" -> "Python"): a '
    'number with a dot, or a number after a name in mixed case; NULL for other names ("Room 101").';

CREATE OR REPLACE FUNCTION hindsight._resolve_entities(
    bank_id text,
    unit_ids uuid[],
    names text[],
    seen_at timestamptz[],
    merge_threshold float8
)
RETURNS TABLE (unit_id uuid, entity_id uuid)
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
SET pg_trgm.similarity_threshold = 0.3
AS $$
#variable_conflict use_column
DECLARE
    bank_units bigint := coalesce((SELECT c.unit_count FROM hindsight._bank_counts c
                                   WHERE c.bank_id = _resolve_entities.bank_id), 0);
    m_units uuid[];
    m_lnames text[];
    r_lnames text[];
    r_ids uuid[];
    seen_ids uuid[];
    seen_firsts timestamptz[];
    seen_lasts timestamptz[];
    new_ids uuid[];
    new_names text[];
    new_firsts timestamptz[];
    new_lasts timestamptz[];
BEGIN
    -- Mentions (unit, name, time) -> entities. Per distinct name (case-insensitive):
    -- an entity of that exact name is reused, else one of its alias ("Postgres" for "PostgreSQL", "Okafor" for
    -- "Dr Okafor", and back: hindsight._entity_aliases); otherwise the best of the 200 most
    -- trigram-similar entities is merged into when
    --   score = 0.5 * name similarity
    --         + 0.3 * share of the name's co-mentioned (known, non-hub) entities that
    --                 co-occur with the candidate
    --         + 0.2 * max(0, 1 - |days from the latest mention to candidate.last_seen| / 7)
    -- exceeds merge_threshold (the bank's entity_merge_threshold, 0.6), the candidate passes
    -- _entity_names_compatible and is not itself co-mentioned with the name; else
    -- a new entity. A hub (linked to more than half of the bank's units) earns no
    -- co-occurrence credit. INSERT ... ON CONFLICT makes two retains that bring the
    -- same new name at once end with one entity. A version ("PostgreSQL 11",
    -- hindsight._entity_version_base) gets parent_id: the entity of its base name,
    -- created without mentions when the bank has none (see the statement after this one).
    -- One statement reads (the mentions m, the names n and what they resolve to), into arrays; then the
    -- seen dates and the new entities are written from the arrays by statements that name the bank. On
    -- Citus, a write in the same statement as the reads made it send the reads' results to every worker.
    WITH m AS (
        SELECT DISTINCT ON (x.u, lower(btrim(x.nm))) x.u AS unit_id, btrim(x.nm) AS name,
               lower(btrim(x.nm)) AS lname, x.at, x.ord
        FROM unnest(unit_ids, names, seen_at) WITH ORDINALITY AS x(u, nm, at, ord)
        WHERE btrim(x.nm) <> ''
        ORDER BY x.u, lower(btrim(x.nm)), x.ord
    ),
    n AS (
        SELECT m.lname, (array_agg(m.name ORDER BY m.ord))[1] AS name, min(m.at) AS first_at, max(m.at) AS last_at
        FROM m GROUP BY m.lname
    ),
    exact AS (  -- the same name, else an alias: the name without its capitals, or with them
        SELECT DISTINCT ON (n.lname) n.lname, e.id
        FROM n JOIN hindsight.entities e
          ON e.bank_id = _resolve_entities.bank_id
         AND lower(e.canonical_name) = ANY (n.lname || hindsight._entity_aliases(n.name))
        ORDER BY n.lname, lower(e.canonical_name) <> n.lname, e.id
    ),
    exact_or_alias AS (
        SELECT x.lname, x.id FROM exact x
        UNION ALL
        (SELECT DISTINCT ON (n.lname) n.lname, e.id
         FROM n JOIN hindsight.entities e
           ON e.bank_id = _resolve_entities.bank_id
          AND (e.canonical_name ILIKE n.name || '%' OR e.canonical_name ILIKE '% ' || n.name)
          AND n.lname = ANY (hindsight._entity_aliases(e.canonical_name))
         WHERE n.lname NOT IN (SELECT lname FROM exact)
         ORDER BY n.lname, e.id)
    ),
    co_mentioned AS (  -- for each name without an exact match: the known entities beside it
        SELECT DISTINCT m1.lname, x.id AS other_id, e.mention_count > bank_units / 2.0 AS hub
        FROM m m1
        JOIN m m2 ON m2.unit_id = m1.unit_id AND m2.lname <> m1.lname
        JOIN exact_or_alias x ON x.lname = m2.lname
        JOIN hindsight.entities e ON e.bank_id = _resolve_entities.bank_id AND e.id = x.id
        WHERE m1.lname NOT IN (SELECT lname FROM exact_or_alias)
    ),
    scored AS (
        SELECT n.lname, c.id,
               0.5 * c.sim
             + 0.3 * coalesce((SELECT count(*) FILTER (WHERE EXISTS (
                                          SELECT FROM hindsight._entity_cooccurrences co
                                          WHERE co.bank_id = _resolve_entities.bank_id AND co.entity_id = c.id
                                            AND co.other_entity_id = o.other_id))::float8 / nullif(count(*), 0)
                               FROM co_mentioned o WHERE o.lname = n.lname AND NOT o.hub), 0)
             + 0.2 * greatest(0, 1 - abs(extract(epoch FROM n.last_at - c.last_seen)) / 86400 / 7) AS score
        FROM n
        CROSS JOIN LATERAL (
            SELECT e.id, e.canonical_name, e.last_seen, similarity(e.canonical_name, n.name) AS sim
            FROM hindsight.entities e
            WHERE e.bank_id = _resolve_entities.bank_id AND e.canonical_name % n.name
            ORDER BY similarity(e.canonical_name, n.name) DESC, e.id
            LIMIT 200
        ) c
        WHERE n.lname NOT IN (SELECT lname FROM exact_or_alias)
          AND hindsight._entity_names_compatible(c.canonical_name, n.name)
          AND NOT EXISTS (SELECT FROM co_mentioned o WHERE o.lname = n.lname AND o.other_id = c.id)
    ),
    resolved AS (
        SELECT lname, id FROM exact_or_alias
        UNION ALL
        (SELECT DISTINCT ON (s.lname) s.lname, s.id FROM scored s WHERE s.score > merge_threshold
         ORDER BY s.lname, s.score DESC, s.id)
    ),
    mentions AS (
        SELECT array_agg(m.unit_id) AS units, array_agg(m.lname) AS lnames FROM m
    ),
    seen AS (
        SELECT array_agg(t.id ORDER BY t.id) AS ids, array_agg(t.first_at ORDER BY t.id) AS firsts,
               array_agg(t.last_at ORDER BY t.id) AS lasts
        FROM (SELECT r.id, min(n.first_at) AS first_at, max(n.last_at) AS last_at
              FROM resolved r JOIN n USING (lname) GROUP BY r.id) t
    ),
    fresh AS (
        SELECT array_agg(n.name ORDER BY n.lname) AS names, array_agg(n.first_at ORDER BY n.lname) AS firsts,
               array_agg(n.last_at ORDER BY n.lname) AS lasts
        FROM n WHERE n.lname NOT IN (SELECT lname FROM resolved)
    ),
    matched AS (
        SELECT array_agg(r.lname ORDER BY r.lname) AS lnames, array_agg(r.id ORDER BY r.lname) AS ids FROM resolved r
    )
    SELECT mentions.units, mentions.lnames, matched.lnames, matched.ids, seen.ids, seen.firsts, seen.lasts,
           fresh.names, fresh.firsts, fresh.lasts
    INTO m_units, m_lnames, r_lnames, r_ids, seen_ids, seen_firsts, seen_lasts, new_names, new_firsts, new_lasts
    FROM mentions, matched, seen, fresh;

    UPDATE hindsight.entities e
    SET first_seen = least(e.first_seen, seen_firsts[array_position(seen_ids, e.id)]),
        last_seen = greatest(e.last_seen, seen_lasts[array_position(seen_ids, e.id)])
    WHERE e.bank_id = _resolve_entities.bank_id AND e.id = ANY (seen_ids);
    -- from the bank's row (bk), with the ids made here (no volatile default): on Citus one INSERT ... SELECT on
    -- the bank's shards, not rows pulled to the coordinator (a COPY, or two-phase commit) (hindsight.retain)
    SELECT array_agg(gen_random_uuid()) INTO new_ids FROM unnest(new_names);
    INSERT INTO hindsight.entities AS e (bank_id, id, canonical_name, first_seen, last_seen)
    SELECT bk.bank_id, x.id, x.name, x.first_at, x.last_at
    FROM hindsight.banks bk, unnest(new_ids, new_names, new_firsts, new_lasts) AS x(id, name, first_at, last_at)
    WHERE bk.bank_id = _resolve_entities.bank_id
    ON CONFLICT (bank_id, lower(canonical_name)) DO UPDATE
    SET first_seen = least(e.first_seen, excluded.first_seen), last_seen = greatest(e.last_seen, excluded.last_seen);

    RETURN QUERY
    SELECT DISTINCT m.unit_id, coalesce(r.id, c.id)
    FROM unnest(m_units, m_lnames) AS m(unit_id, lname)
    LEFT JOIN unnest(r_lnames, r_ids) AS r(lname, id) ON r.lname = m.lname
    LEFT JOIN (SELECT c.id, lower(c.canonical_name) AS lname FROM hindsight.entities c
               WHERE c.bank_id = _resolve_entities.bank_id
                 AND lower(c.canonical_name) IN (SELECT lower(x) FROM unnest(new_names) x)) c ON c.lname = m.lname;

    -- Versions among these names without a parent: the base name's entity (or its alias) becomes the parent,
    -- created without mentions where the bank has none.
    SELECT array_agg(gen_random_uuid()), array_agg(vb.base), array_agg(vb.first_seen), array_agg(vb.last_seen)
    INTO new_ids, new_names, new_firsts, new_lasts
    FROM (
        SELECT DISTINCT ON (lower(v.base)) v.base, v.first_seen, v.last_seen
        FROM (SELECT hindsight._entity_version_base(c.canonical_name) AS base, c.first_seen, c.last_seen
              FROM hindsight.entities c
              WHERE c.bank_id = _resolve_entities.bank_id AND c.parent_id IS NULL
                AND lower(c.canonical_name) IN (SELECT lower(btrim(x)) FROM unnest(names) x)) v
        WHERE v.base IS NOT NULL
          AND NOT EXISTS (SELECT FROM hindsight.entities b
                          WHERE b.bank_id = _resolve_entities.bank_id
                            AND (lower(b.canonical_name) = ANY (lower(v.base) || hindsight._entity_aliases(v.base))
                                 OR lower(v.base) = ANY (hindsight._entity_aliases(b.canonical_name))))
        ORDER BY lower(v.base), v.first_seen) vb;
    INSERT INTO hindsight.entities (bank_id, id, canonical_name, first_seen, last_seen)
    SELECT bk.bank_id, x.id, x.name, x.first_at, x.last_at
    FROM hindsight.banks bk, unnest(new_ids, new_names, new_firsts, new_lasts) AS x(id, name, first_at, last_at)
    WHERE bk.bank_id = _resolve_entities.bank_id
    ON CONFLICT (bank_id, lower(canonical_name)) DO NOTHING;
    UPDATE hindsight.entities c
    SET parent_id = (SELECT b.id FROM hindsight.entities b
                     WHERE b.bank_id = _resolve_entities.bank_id  -- a constant: on Citus, the bank's shard only
                       AND (lower(b.canonical_name) = ANY (lower(hindsight._entity_version_base(c.canonical_name))
                                                           || hindsight._entity_aliases(
                                                                  hindsight._entity_version_base(c.canonical_name)))
                            OR lower(hindsight._entity_version_base(c.canonical_name))
                               = ANY (hindsight._entity_aliases(b.canonical_name)))
                     ORDER BY lower(b.canonical_name) <> lower(hindsight._entity_version_base(c.canonical_name)), b.id
                     LIMIT 1)
    WHERE c.bank_id = _resolve_entities.bank_id AND c.parent_id IS NULL
      AND hindsight._entity_version_base(c.canonical_name) IS NOT NULL
      AND lower(c.canonical_name) IN (SELECT lower(btrim(x)) FROM unnest(names) x);
END
$$;
COMMENT ON FUNCTION hindsight._resolve_entities(text, uuid[], text[], timestamptz[], float8) IS
    'Entity resolution of retain: maps mentions (unit_ids[i] names names[i] at seen_at[i]) to entities of the '
    'bank, reusing exact names and aliases ("Postgres" / "PostgreSQL"), merging into a similar entity when 0.5 name similarity + 0.3 co-occurrence share '
    '+ 0.2 recency (7 days) > merge_threshold (the bank''s entity_merge_threshold), else creating one; updates first_seen/last_seen. '
    'Returns one row per (unit, entity). A version ("PostgreSQL 11") gets its base name''s entity as parent_id '
    '(created without mentions if missing). See docs/retain.md.';

CREATE OR REPLACE FUNCTION hindsight._delete_orphan_entities(bank_id text)
RETURNS int
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
AS $$
DECLARE
    gone int;
BEGIN
    -- an entity nothing mentions goes, unless a version of it is still mentioned ("PostgreSQL" of "PostgreSQL 11")
    DELETE FROM hindsight.entities e
    WHERE e.bank_id = _delete_orphan_entities.bank_id AND e.mention_count = 0
      AND NOT EXISTS (SELECT FROM hindsight.entities v
                      WHERE v.bank_id = e.bank_id AND v.parent_id = e.id AND v.mention_count > 0);
    GET DIAGNOSTICS gone = ROW_COUNT;
    RETURN gone;
END
$$;
COMMENT ON FUNCTION hindsight._delete_orphan_entities(text) IS
    'Deletes the entities of a bank that no memory unit mentions any more (a parent stays while a version of it '
    'is mentioned); returns how many.';
