-- Bank isolation with row-level security.
--
-- A role sees and changes only the banks it created or was granted
-- (hindsight.grant_bank): read, write or admin. Row-level security is forced on
-- every table holding bank data, so it also binds the table owner; superusers
-- (and so the extension owner, who must be one) see everything. The pipeline's
-- functions run as the caller (SECURITY INVOKER), so recall, retain and the
-- PL/Python code that reads tables see only the caller's banks. The few
-- SECURITY DEFINER functions derive data (triggers) or read the membership
-- (hindsight._bank_level); none returns bank data.

CREATE TABLE hindsight.bank_members (
    bank_id    text NOT NULL REFERENCES hindsight.banks ON DELETE CASCADE,
    role_name  name NOT NULL,
    privilege  text NOT NULL CHECK (privilege IN ('read', 'write', 'admin')),
    granted_by name NOT NULL DEFAULT current_user,
    granted_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (bank_id, role_name)
);
CREATE INDEX bank_members_role_idx ON hindsight.bank_members (role_name);
COMMENT ON TABLE hindsight.bank_members IS
    'Who may use a bank beyond its creator: read (recall), write (retain, delete), admin (grant, configure, '
    'delete the bank). Changed through hindsight.grant_bank / hindsight.revoke_bank.';
SELECT pg_catalog.pg_extension_config_dump('hindsight.bank_members', '');

CREATE FUNCTION hindsight._privilege_level(privilege text)
RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE privilege WHEN 'read' THEN 1 WHEN 'write' THEN 2 WHEN 'admin' THEN 3 END
$$;
COMMENT ON FUNCTION hindsight._privilege_level(text) IS 'read = 1 < write = 2 < admin = 3; NULL for anything else.';

-- The policies (sql/functions/banks/access.sql) call hindsight._bank_access(bank_id, current_user,
-- level) on every row: the C function asks hindsight._bank_level once per bank and statement.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['banks', 'bank_members', 'documents', 'chunks', 'memory_units', 'entities',
                             'unit_entities', 'memory_links', 'observation_sources', 'mental_models',
                             '_bank_counts', '_bm25_terms', '_bm25_postings', '_entity_cooccurrences'] LOOP
        EXECUTE format('ALTER TABLE hindsight.%I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE hindsight.%I FORCE ROW LEVEL SECURITY', t);
    END LOOP;
END
$$;

-- Any role may use the schema; row-level security decides which rows it reaches.
GRANT USAGE ON SCHEMA hindsight TO PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON hindsight.banks, hindsight.documents, hindsight.chunks,
    hindsight.memory_units, hindsight.entities, hindsight.unit_entities, hindsight.memory_links,
    hindsight.observation_sources, hindsight.mental_models TO PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON hindsight.bank_members TO PUBLIC;
GRANT SELECT ON hindsight._bank_counts, hindsight._bm25_terms, hindsight._bm25_postings,
    hindsight._entity_cooccurrences TO PUBLIC;
GRANT SELECT ON hindsight.settings TO PUBLIC;

CREATE FUNCTION hindsight._invoker()
RETURNS name
LANGUAGE sql STABLE
AS $$
    -- The role a SECURITY DEFINER function was called by: the SET ROLE role, else
    -- the session user (current_user inside such a function is its owner).
    SELECT CASE WHEN current_setting('role') IN ('', 'none') THEN session_user
                ELSE current_setting('role')::name END
$$;
COMMENT ON FUNCTION hindsight._invoker() IS
    'The calling role as seen from inside a SECURITY DEFINER function: the SET ROLE role, else session_user.';

CREATE FUNCTION hindsight._is_superuser(role name)
RETURNS bool
LANGUAGE sql STABLE
AS $$
    SELECT coalesce((SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = role), false)
$$;
COMMENT ON FUNCTION hindsight._is_superuser(name) IS 'Whether a role is a superuser (false for an unknown role).';
