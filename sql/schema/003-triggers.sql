-- Counters kept exact by statement-level triggers: banks.unit_count (memory units
-- per bank) and entities.mention_count (units linked to the entity). The graph arm
-- reads both to tell a telling entity from one that half the bank mentions.

CREATE FUNCTION hindsight._count_units()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE hindsight.banks b SET unit_count = b.unit_count + n.c
        FROM (SELECT bank_id, count(*)::int AS c FROM changed GROUP BY bank_id) n WHERE b.bank_id = n.bank_id;
    ELSE
        UPDATE hindsight.banks b SET unit_count = b.unit_count - n.c
        FROM (SELECT bank_id, count(*)::int AS c FROM changed GROUP BY bank_id) n WHERE b.bank_id = n.bank_id;
    END IF;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._count_units() IS
    'Trigger: keeps banks.unit_count equal to the bank''s number of memory units.';

CREATE TRIGGER memory_units_counted_insert AFTER INSERT ON hindsight.memory_units
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_units();
CREATE TRIGGER memory_units_counted_delete AFTER DELETE ON hindsight.memory_units
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_units();

CREATE FUNCTION hindsight._count_mentions()
RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE hindsight.entities e SET mention_count = e.mention_count + n.c
        FROM (SELECT bank_id, entity_id, count(*)::int AS c FROM changed GROUP BY 1, 2) n
        WHERE e.bank_id = n.bank_id AND e.id = n.entity_id;
    ELSE
        UPDATE hindsight.entities e SET mention_count = e.mention_count - n.c
        FROM (SELECT bank_id, entity_id, count(*)::int AS c FROM changed GROUP BY 1, 2) n
        WHERE e.bank_id = n.bank_id AND e.id = n.entity_id;
    END IF;
    RETURN NULL;
END
$$;
COMMENT ON FUNCTION hindsight._count_mentions() IS
    'Trigger: keeps entities.mention_count equal to the number of memory units linked to the entity.';

CREATE TRIGGER unit_entities_counted_insert AFTER INSERT ON hindsight.unit_entities
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_mentions();
CREATE TRIGGER unit_entities_counted_delete AFTER DELETE ON hindsight.unit_entities
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hindsight._count_mentions();
