-- Per-bank statistics, one row per bank the dbt role may read (row-level security applies).
-- depends_on: {{ ref('memories') }}  (the example's bank is filled first)
select
    bank_id,
    name,
    units,
    world_units,
    experience_units,
    observation_units,
    entities,
    temporal_links + semantic_links + causal_links as links,
    documents,
    first_date,
    last_date,
    round(units::numeric / nullif(documents, 0), 2) as units_per_document
from hindsight.bank_stats
