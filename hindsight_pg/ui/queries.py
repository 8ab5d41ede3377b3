"""The inspector's SQL: every statement its pages run (beside the driver's own calls), all reads of public views,
tables and functions, as the connecting role (row-level security decides what they see)."""

# every bank the role can read, its counts, links and the config keys it changes from the defaults
BANKS = (
    "SELECT s.*, b.config, hindsight.default_config() AS defaults, (SELECT count(*) FROM"
    " hindsight.memory_links k WHERE k.bank_id = s.bank_id) AS links FROM hindsight.bank_stats s"
    " JOIN hindsight.banks b USING (bank_id) ORDER BY s.bank_id"
)
# the timeline: units per week or month (%(g)s) of a bank (%(b)s), by each unit's date
UNITS_BY_PERIOD = (
    "SELECT date_trunc(%(g)s, d)::date AS bucket, count(*) FROM (SELECT hindsight.unit_date("
    "occurred_start, occurred_end, mentioned_at) AS d FROM hindsight.memory_units"
    " WHERE bank_id = %(b)s) x WHERE d IS NOT NULL GROUP BY 1 ORDER BY 1"
)
# a chosen range of days (%(s)s to %(e)s, either NULL: open), a page of it (%(n)s from %(o)s)
_IN_RANGE = (
    " FROM hindsight.memory_units WHERE bank_id = %(b)s AND (%(s)s::date IS NULL OR"
    " hindsight.unit_date(occurred_start, occurred_end, mentioned_at) >= %(s)s::date) AND"
    " (%(e)s::date IS NULL OR hindsight.unit_date(occurred_start, occurred_end, mentioned_at)"
    " < %(e)s::date + 1)"
)
COUNT_IN_RANGE = "SELECT count(*)" + _IN_RANGE
UNITS_IN_RANGE = (
    "SELECT mentioned_at, occurred_start, occurred_end, id, text, fact_type, tags, document_id"
    + _IN_RANGE
    + " ORDER BY hindsight.unit_date(occurred_start, occurred_end, mentioned_at), id LIMIT %(n)s OFFSET %(o)s"
)
# the entity graph's edges: the counts the co-occurrence trigger keeps (one index probe per shown entity), in one
# order, ties too, so that the graph's seeded layout is the same on every load
COOCCURRENCES = "SELECT entity_id, other_entity_id, unit_count FROM hindsight.entity_cooccurrences(%s, %s) LIMIT %s"
# a chosen entity's units, latest first
MENTIONS = (
    "SELECT u.text, u.mentioned_at, u.occurred_start, u.occurred_end"
    " FROM hindsight.unit_entities ue JOIN hindsight.entities e ON e.bank_id = ue.bank_id"
    " AND e.id = ue.entity_id JOIN hindsight.memory_units u ON u.bank_id = ue.bank_id"
    " AND u.id = ue.unit_id WHERE ue.bank_id = %s AND e.canonical_name = %s ORDER BY"
    " hindsight.unit_date(u.occurred_start, u.occurred_end, u.mentioned_at) DESC, u.id LIMIT %s"
)
# the playground's default day: the bank's latest memory's
LATEST_MENTION = "SELECT max(mentioned_at) FROM hindsight.memory_units WHERE bank_id = %s"
# the candidates scored but not packed, by id
UNITS_BY_ID = (
    "SELECT id::text, text, token_count FROM hindsight.memory_units WHERE bank_id = %s AND id = ANY(%s::uuid[])"
)
