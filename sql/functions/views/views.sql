-- Analytics views (security_invoker: row-level security applies to whoever queries them).

CREATE OR REPLACE VIEW hindsight.bank_stats WITH (security_invoker = true) AS
-- each count a subquery grouped by bank joined on bank_id (not a LATERAL or a correlated subquery), so
-- that WHERE bank_id = 'b' reaches each of them: on Citus that reads the bank's shards only
SELECT b.bank_id,
       b.name,
       coalesce(u.units, 0) AS units,
       coalesce(u.world_units, 0) AS world_units,
       coalesce(u.experience_units, 0) AS experience_units,
       coalesce(u.observation_units, 0) AS observation_units,
       coalesce(e.entities, 0) AS entities,
       coalesce(l.temporal_links, 0) AS temporal_links,
       coalesce(l.semantic_links, 0) AS semantic_links,
       coalesce(l.causal_links, 0) AS causal_links,
       u.first_date,
       u.last_date,
       coalesce(d.documents, 0) AS documents,
       coalesce(c.chunks, 0) AS chunks
FROM hindsight.banks b
LEFT JOIN (
    SELECT m.bank_id,
           count(*) AS units,
           count(*) FILTER (WHERE m.fact_type = 'world') AS world_units,
           count(*) FILTER (WHERE m.fact_type = 'experience') AS experience_units,
           count(*) FILTER (WHERE m.fact_type = 'observation') AS observation_units,
           min(hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at)) AS first_date,
           max(hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at)) AS last_date
    FROM hindsight.memory_units m GROUP BY m.bank_id
) u ON u.bank_id = b.bank_id
LEFT JOIN (SELECT x.bank_id, count(*) AS entities FROM hindsight.entities x GROUP BY x.bank_id) e
       ON e.bank_id = b.bank_id
LEFT JOIN (
    SELECT k.bank_id,
           count(*) FILTER (WHERE k.link_type = 'temporal') AS temporal_links,
           count(*) FILTER (WHERE k.link_type = 'semantic') AS semantic_links,
           count(*) FILTER (WHERE k.link_type IN ('causes', 'caused_by', 'enables', 'prevents')) AS causal_links
    FROM hindsight.memory_links k GROUP BY k.bank_id
) l ON l.bank_id = b.bank_id
LEFT JOIN (SELECT x.bank_id, count(*) AS documents FROM hindsight.documents x GROUP BY x.bank_id) d
       ON d.bank_id = b.bank_id
LEFT JOIN (SELECT x.bank_id, count(*) AS chunks FROM hindsight.chunks x GROUP BY x.bank_id) c
       ON c.bank_id = b.bank_id;
COMMENT ON VIEW hindsight.bank_stats IS
    'One row per bank the caller may read: memory units in all and per fact type, entities, links per kind '
    '(temporal, semantic, causal), the first and last date of its units (hindsight.unit_date: occurred_start, else '
    'occurred_end, else mentioned_at), documents and chunks.';

CREATE OR REPLACE VIEW hindsight.entity_graph WITH (security_invoker = true) AS
SELECT a.bank_id,
       a.entity_id AS entity_a_id,
       ea.canonical_name AS entity_a,
       b.entity_id AS entity_b_id,
       eb.canonical_name AS entity_b,
       count(*) AS co_occurrences,
       max(hindsight._effective_date(u.occurred_start, u.occurred_end, u.mentioned_at)) AS last_co_occurrence
FROM hindsight.unit_entities a
JOIN hindsight.unit_entities b ON b.bank_id = a.bank_id AND b.unit_id = a.unit_id AND a.entity_id < b.entity_id
JOIN hindsight.memory_units u ON u.bank_id = a.bank_id AND u.id = a.unit_id
JOIN hindsight.entities ea ON ea.bank_id = a.bank_id AND ea.id = a.entity_id
JOIN hindsight.entities eb ON eb.bank_id = b.bank_id AND eb.id = b.entity_id
GROUP BY a.bank_id, a.entity_id, ea.canonical_name, b.entity_id, eb.canonical_name;
COMMENT ON VIEW hindsight.entity_graph IS
    'Pairs of entities mentioned by the same memory units, per bank (each pair once, entity_a_id < entity_b_id): '
    'how many units mention both and the latest date of such a unit.';

CREATE OR REPLACE VIEW hindsight.memory_timeline WITH (security_invoker = true) AS
SELECT m.bank_id,
       date_trunc('month', hindsight._effective_date(m.occurred_start, m.occurred_end, m.mentioned_at)) AS month,
       m.fact_type,
       count(*) AS units
FROM hindsight.memory_units m
GROUP BY 1, 2, 3;
COMMENT ON VIEW hindsight.memory_timeline IS
    'Memory units per bank, calendar month (of hindsight.unit_date: occurred_start, else occurred_end, else '
    'mentioned_at; NULL when undated) and fact type.';

CREATE OR REPLACE VIEW hindsight.entity_stats WITH (security_invoker = true) AS
SELECT e.bank_id,
       e.id AS entity_id,
       e.canonical_name,
       e.mention_count,
       e.first_seen,
       e.last_seen,
       (SELECT count(*) FROM hindsight._entity_cooccurrences c
        WHERE c.bank_id = e.bank_id AND c.entity_id = e.id) AS co_occurring_entities,
       coalesce((SELECT json_object_agg(t.canonical_name, t.unit_count ORDER BY t.unit_count DESC, t.canonical_name)
                 FROM (SELECT o.canonical_name, c.unit_count
                       FROM hindsight._entity_cooccurrences c
                       JOIN hindsight.entities o ON o.bank_id = c.bank_id AND o.id = c.other_entity_id
                       WHERE c.bank_id = e.bank_id AND c.entity_id = e.id
                       ORDER BY c.unit_count DESC, o.canonical_name
                       LIMIT 10) t), '{}'::json) AS co_occurring
FROM hindsight.entities e;
COMMENT ON VIEW hindsight.entity_stats IS
    'One row per entity of the banks the caller may read: canonical name, memory units that mention it '
    '(mention_count), first and last mention, how many other entities it occurs with, and the ten it occurs '
    'with most as a JSON object {name: units}, most first.';

GRANT SELECT ON hindsight.bank_stats, hindsight.entity_graph, hindsight.memory_timeline, hindsight.entity_stats
    TO PUBLIC;
