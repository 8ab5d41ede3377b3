-- The triggers that keep derived data exact (the tables are in sql/schema/003-derived.sql):
-- BM25 statistics, mention counts, entity co-occurrences, the links of deleted units, and
-- observations whose facts were deleted.
--
-- Restore-safe by construction: pg_dump keeps the memory tables' rows (they are extension
-- config tables) but not the derived tables, and a restore inserts the rows again, which fires
-- these triggers on empty derived tables. entities.mention_count, which is dumped with its row,
-- is recounted rather than incremented, so a restore cannot double it.
--
-- Every trigger is FOR EACH STATEMENT with a transition table and works bank by bank, so that
-- the same code is right on Citus (docs/scale-out.md): there a trigger fires on the worker,
-- once per shard a statement touched, and
--   * its transition table is read only by statements that touch no other table (Citus plans
--     a statement naming a distributed table again, and the transition table is lost); the
--     rows go into arrays, and the writes read the arrays;
--   * every statement that reads or writes a distributed table names one bank (bank_id = b),
--     so it reaches that bank's shards, which are colocated on this worker: Citus allows a
--     trigger only such local work.
-- The triggers run as the extension owner (SECURITY DEFINER): callers may read the derived
-- tables of their banks but never write them. The functions are CREATE OR REPLACE and the
-- triggers CREATE OR REPLACE TRIGGER, so install and update run the same file.

CREATE OR REPLACE FUNCTION hindsight._index_units()
RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    b text;
    postings hindsight._bm25_postings[];
    units bigint;
    length bigint;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        -- an update that leaves every search_vector as it was (e.g. consolidated_at) changes no statistics;
        -- a set difference, not a join: the plan is cached from the first call (often one row), and a
        -- nested loop over thousands of rows would be quadratic
        IF NOT EXISTS (SELECT n.bank_id, n.id, n.search_vector::text FROM new_rows n
                       EXCEPT ALL
                       SELECT o.bank_id, o.id, o.search_vector::text FROM old_rows o) THEN
            RETURN NULL;
        END IF;
    END IF;
    -- the rows that left, then the rows that came (an UPDATE does both)
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        FOR b IN SELECT DISTINCT o.bank_id FROM old_rows o LOOP
            SELECT array_agg(ROW(o.bank_id, t.lexeme, o.id, cardinality(t.positions), 0)::hindsight._bm25_postings)
            INTO postings
            FROM old_rows o, unnest(o.search_vector) AS t WHERE o.bank_id = b;
            SELECT count(*), coalesce(sum((SELECT sum(cardinality(t.positions)) FROM unnest(o.search_vector) t)), 0)
            INTO units, length
            FROM old_rows o WHERE o.bank_id = b;
            DELETE FROM hindsight._bm25_postings p USING unnest(postings) g
            WHERE p.bank_id = b AND p.term = g.term AND p.unit_id = g.unit_id;
            UPDATE hindsight._bm25_terms t SET df = t.df - c.n
            FROM (SELECT g.term, count(*)::int AS n FROM unnest(postings) g GROUP BY 1) c
            WHERE t.bank_id = b AND t.term = c.term;
            DELETE FROM hindsight._bm25_terms t
            WHERE t.bank_id = b AND t.df <= 0 AND t.term IN (SELECT g.term FROM unnest(postings) g);
            UPDATE hindsight._bank_counts c
            SET unit_count = c.unit_count - units, total_length = c.total_length - length
            WHERE c.bank_id = b;
        END LOOP;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        FOR b IN SELECT DISTINCT r.bank_id FROM new_rows r LOOP
            SELECT array_agg(ROW(r.bank_id, t.lexeme, r.id, cardinality(t.positions), r.doc_length)
                             ::hindsight._bm25_postings)
            INTO postings
            FROM (SELECT n.bank_id, n.id, n.search_vector,
                         (SELECT sum(cardinality(x.positions)) FROM unnest(n.search_vector) x)::int AS doc_length
                  FROM new_rows n WHERE n.bank_id = b) r,
                 unnest(r.search_vector) AS t;
            SELECT count(*), coalesce(sum((SELECT sum(cardinality(t.positions)) FROM unnest(r.search_vector) t)), 0)
            INTO units, length
            FROM new_rows r WHERE r.bank_id = b;
            INSERT INTO hindsight._bm25_postings (bank_id, term, unit_id, tf, doc_length)
            SELECT g.bank_id, g.term, g.unit_id, g.tf, g.doc_length FROM unnest(postings) g;
            INSERT INTO hindsight._bm25_terms AS t (bank_id, term, df)
            SELECT b, g.term, count(*) FROM unnest(postings) g GROUP BY g.term
            ON CONFLICT (bank_id, term) DO UPDATE SET df = t.df + excluded.df;
            INSERT INTO hindsight._bank_counts AS c (bank_id, unit_count, total_length)
            VALUES (b, units, length)
            ON CONFLICT (bank_id) DO UPDATE
            SET unit_count = c.unit_count + excluded.unit_count, total_length = c.total_length + excluded.total_length;
        END LOOP;
    END IF;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._index_units() IS
    'Trigger: keeps _bank_counts, _bm25_terms and _bm25_postings exact as memory units come, go or change text.';

CREATE OR REPLACE TRIGGER memory_units_indexed_insert AFTER INSERT ON hindsight.memory_units
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hindsight._index_units();
CREATE OR REPLACE TRIGGER memory_units_indexed_delete AFTER DELETE ON hindsight.memory_units
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hindsight._index_units();
CREATE OR REPLACE TRIGGER memory_units_indexed_update AFTER UPDATE ON hindsight.memory_units
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION hindsight._index_units();

CREATE OR REPLACE FUNCTION hindsight._count_mentions()
RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    b text;
    touched uuid[];
BEGIN
    FOR b, touched IN SELECT c.bank_id, array_agg(DISTINCT c.entity_id) FROM changed c GROUP BY c.bank_id LOOP
        UPDATE hindsight.entities e
        SET mention_count = (SELECT count(*) FROM hindsight.unit_entities ue
                             WHERE ue.bank_id = b AND ue.entity_id = e.id)
        WHERE e.bank_id = b AND e.id = ANY (touched);
    END LOOP;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._count_mentions() IS
    'Trigger: recounts entities.mention_count (units linked to the entity) for the entities a statement touched.';

CREATE OR REPLACE TRIGGER unit_entities_counted_insert AFTER INSERT ON hindsight.unit_entities
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_mentions();
CREATE OR REPLACE TRIGGER unit_entities_counted_delete AFTER DELETE ON hindsight.unit_entities
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_mentions();

CREATE OR REPLACE FUNCTION hindsight._count_cooccurrences()
RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    b text;
    mentions hindsight.unit_entities[];
BEGIN
    -- Per unit, every ordered pair of its entities counts once. The pairs a statement
    -- makes or breaks: among its own rows, and between its rows and the unit's other
    -- rows (which, after the statement, are exactly the unit's rows not in it).
    FOR b, mentions IN SELECT c.bank_id, array_agg(c) FROM changed c GROUP BY c.bank_id LOOP
        IF TG_OP = 'INSERT' THEN
            INSERT INTO hindsight._entity_cooccurrences AS c (bank_id, entity_id, other_entity_id, unit_count)
            SELECT b, p.a, p.o, count(*)
            FROM (SELECT n.entity_id AS a, ue.entity_id AS o
                  FROM unnest(mentions) n JOIN hindsight.unit_entities ue
                    ON ue.bank_id = b AND ue.unit_id = n.unit_id AND ue.entity_id <> n.entity_id
                  UNION ALL
                  SELECT ue.entity_id, n.entity_id
                  FROM unnest(mentions) n JOIN hindsight.unit_entities ue
                    ON ue.bank_id = b AND ue.unit_id = n.unit_id AND ue.entity_id <> n.entity_id
                  WHERE NOT EXISTS (SELECT FROM unnest(mentions) x WHERE x.unit_id = ue.unit_id
                                                               AND x.entity_id = ue.entity_id)) p
            GROUP BY 1, 2, 3
            ON CONFLICT (bank_id, entity_id, other_entity_id)
            DO UPDATE SET unit_count = c.unit_count + excluded.unit_count;
        ELSE
            UPDATE hindsight._entity_cooccurrences c SET unit_count = c.unit_count - n.n
            FROM (SELECT g.a, g.o, count(*)::int AS n
                  FROM (SELECT o1.entity_id AS a, o2.entity_id AS o
                        FROM unnest(mentions) o1 JOIN unnest(mentions) o2
                          ON o2.unit_id = o1.unit_id AND o2.entity_id <> o1.entity_id
                        UNION ALL
                        SELECT x.a, x.o
                        FROM unnest(mentions) d JOIN hindsight.unit_entities ue ON ue.bank_id = b AND ue.unit_id = d.unit_id,
                             LATERAL (VALUES (d.entity_id, ue.entity_id), (ue.entity_id, d.entity_id)) AS x(a, o)) g
                  GROUP BY 1, 2) n
            WHERE c.bank_id = b AND c.entity_id = n.a AND c.other_entity_id = n.o;
            -- a pair at 0 is at 0 in both directions, and one direction starts at an entity of the statement
            DELETE FROM hindsight._entity_cooccurrences c
            WHERE c.bank_id = b AND c.unit_count <= 0
              AND (c.entity_id IN (SELECT d.entity_id FROM unnest(mentions) d)
                OR c.other_entity_id IN (SELECT d.entity_id FROM unnest(mentions) d));
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._count_cooccurrences() IS
    'Trigger: keeps _entity_cooccurrences exact as unit_entities rows come and go.';

CREATE OR REPLACE TRIGGER unit_entities_cooccurring_insert AFTER INSERT ON hindsight.unit_entities
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_cooccurrences();
CREATE OR REPLACE TRIGGER unit_entities_cooccurring_delete AFTER DELETE ON hindsight.unit_entities
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_cooccurrences();

CREATE OR REPLACE FUNCTION hindsight._unlink_units()
RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    b text;
    gone uuid[];
    revised uuid[];
BEGIN
    -- the links from and to the deleted units, through the primary key and memory_links_to_idx
    FOR b, gone IN SELECT o.bank_id, array_agg(o.id) FROM old_rows o GROUP BY o.bank_id LOOP
        WITH d AS (
            DELETE FROM hindsight.memory_links l WHERE l.bank_id = b AND l.from_unit_id = ANY (gone)
            RETURNING l.to_unit_id, l.link_type)
        SELECT array_agg(d.to_unit_id) INTO revised FROM d WHERE d.link_type = 'supersedes';
        DELETE FROM hindsight.memory_links l WHERE l.bank_id = b AND l.to_unit_id = ANY (gone);
        -- a unit whose superseding unit is gone: superseded_at from the ones left (NULL when none is)
        IF revised IS NOT NULL THEN
            UPDATE hindsight.memory_units u
            SET superseded_at = (SELECT min(n.mentioned_at) FROM hindsight.memory_links l
                                 JOIN hindsight.memory_units n ON n.bank_id = l.bank_id AND n.id = l.from_unit_id
                                 WHERE l.bank_id = b AND l.to_unit_id = u.id AND l.link_type = 'supersedes')
            WHERE u.bank_id = b AND u.id = ANY (revised) AND NOT u.id = ANY (gone);
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._unlink_units() IS
    'Trigger: deletes the memory_links from and to the memory units a statement deleted, and recomputes the '
    'superseded_at of the units they superseded.';

CREATE OR REPLACE TRIGGER memory_units_unlinked AFTER DELETE ON hindsight.memory_units
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hindsight._unlink_units();

-- Observations follow their facts: a fact deleted from an observation's proof updates the
-- observation, or removes it when no fact is left (hindsight._refresh_observation).
CREATE OR REPLACE FUNCTION hindsight._observation_sources_changed()
RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    b text;
    observations uuid[];
    o uuid;
BEGIN
    FOR b, observations IN SELECT g.bank_id, array_agg(DISTINCT g.observation_id) FROM gone g GROUP BY g.bank_id LOOP
        -- an observation deleted by the same statement (a cascade from its own row) needs nothing
        FOR o IN SELECT u.id FROM hindsight.memory_units u WHERE u.bank_id = b AND u.id = ANY (observations)
                 ORDER BY u.id LOOP
            PERFORM hindsight._refresh_observation(b, o);
        END LOOP;
    END LOOP;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._observation_sources_changed() IS
    'Trigger: refreshes (or deletes, when no fact is left) the observations whose supporting facts were deleted.';

CREATE OR REPLACE TRIGGER observation_sources_changed AFTER DELETE ON hindsight.observation_sources
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION hindsight._observation_sources_changed();
