-- link_updates: knowledge updates found over a whole bank (retain finds them for new units, _updates.sql).

CREATE OR REPLACE FUNCTION hindsight.link_updates(bank_id text)
RETURNS int
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    cfg jsonb;
BEGIN
    PERFORM hindsight._require_python();
    cfg := hindsight.bank_config(link_updates.bank_id);  -- HS404 for an unknown bank
    PERFORM hindsight._lock_bank(link_updates.bank_id);
    RETURN hindsight._link_updates(link_updates.bank_id, ARRAY(
        SELECT u.id FROM hindsight.memory_units u
        WHERE u.bank_id = link_updates.bank_id AND u.fact_type <> 'observation' ORDER BY u.mentioned_at, u.id),
        cfg, hindsight._semantic_path(link_updates.bank_id, cfg));
END
$$;
COMMENT ON FUNCTION hindsight.link_updates(text) IS
$$Finds the knowledge updates among all of a bank's memory units, as retain does for new ones
(hindsight._link_updates: each unit against its update_candidates nearest units said before it): for memories
retained before 0.3.0, or after changing update_candidates or update_min_similarity. Adds the supersedes links
it finds (existing ones stay) and sets superseded_at; returns the number of links added. Errors: HS404 unknown
bank; 42501 without write access to it. docs/recall.md, "Updates win".$$;
