-- Bank access: who may use a bank (hindsight._bank_level), the row-level security policies
-- that ask it (sql/schema/004-security.sql enables them), granting and revoking.

CREATE OR REPLACE FUNCTION hindsight._bank_level(bank_id text, role name)
RETURNS int
LANGUAGE plpgsql STABLE PARALLEL SAFE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
-- On Citus the policies run on the workers, inside the shard query: this function's two
-- lookups name one bank, so they read the bank's colocated shards on the same worker, which
-- Citus runs only when allowed to nest (docs/scale-out.md). A placeholder without Citus.
SET citus.allow_nested_distributed_execution = on
AS $$
#variable_conflict use_column
DECLARE
    roles name[];
BEGIN
    -- the role and the roles it is a member of, by name: a role's oid differs from node to node,
    -- and Citus would evaluate a join of pg_roles with a bank table on a worker with the
    -- coordinator's oids
    SELECT array_agg(r.rolname) INTO roles
    FROM pg_catalog.pg_roles r WHERE pg_catalog.pg_has_role(_bank_level.role, r.oid, 'MEMBER');
    -- 3 (admin) for a bank one of them created; else their best grant (1 read, 2 write, 3 admin); 0 for none
    RETURN greatest(
        (SELECT 3 FROM hindsight.banks b WHERE b.bank_id = _bank_level.bank_id AND b.created_by = ANY (roles)),
        (SELECT max(hindsight._privilege_level(m.privilege)) FROM hindsight.bank_members m
         WHERE m.bank_id = _bank_level.bank_id AND m.role_name = ANY (roles)),
        0);
END
$$;
COMMENT ON FUNCTION hindsight._bank_level(text, name) IS
    'The privilege a role holds on a bank: 3 (admin) for its creator (or a member of the creating role), else the '
    'best of its grants and those of roles it belongs to (1 read, 2 write, 3 admin), 0 for none or an unknown bank. '
    'Runs as the extension owner to read the membership; returns a number only.';

CREATE OR REPLACE FUNCTION hindsight._bank_access(bank_id text, role name, privilege int)
RETURNS bool
LANGUAGE c STABLE PARALLEL SAFE
AS 'MODULE_PATHNAME', 'hindsight_bank_access';
COMMENT ON FUNCTION hindsight._bank_access(text, name, int) IS
    'Row-level security check (src/hindsight_pg.c): hindsight._bank_level(bank_id, role) >= privilege, asked once '
    'per bank and role in each statement (the answer is kept for the rest of it). False for NULL arguments.';

-- The policies: read for SELECT, write for changes, admin for the bank row itself. Each is a
-- function of the row and the session, with no subquery: Citus evaluates policies on the
-- workers and accepts none with a subquery. The keyword arm's C scorer (src/bm25.c) reads
-- _bm25_postings' index directly and applies bank_read itself: change the two together.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['documents', 'chunks', 'memory_units', 'entities', 'unit_entities', 'memory_links',
                             'observation_sources', 'mental_models', '_bank_counts', '_bm25_terms',
                             '_bm25_postings', '_entity_cooccurrences'] LOOP
        EXECUTE format('DROP POLICY IF EXISTS bank_read ON hindsight.%I', t);
        EXECUTE format('DROP POLICY IF EXISTS bank_write ON hindsight.%I', t);
        EXECUTE format('CREATE POLICY bank_read ON hindsight.%I FOR SELECT'
                       ' USING (hindsight._bank_access(bank_id, current_user, 1))', t);
        IF left(t, 1) <> '_' THEN  -- derived tables: written by the triggers only
            EXECUTE format('CREATE POLICY bank_write ON hindsight.%I FOR ALL'
                           ' USING (hindsight._bank_access(bank_id, current_user, 2))'
                           ' WITH CHECK (hindsight._bank_access(bank_id, current_user, 2))', t);
        END IF;
    END LOOP;
    DROP POLICY IF EXISTS bank_read ON hindsight.banks;
    DROP POLICY IF EXISTS bank_create ON hindsight.banks;
    DROP POLICY IF EXISTS bank_admin ON hindsight.banks;
    DROP POLICY IF EXISTS bank_admin_delete ON hindsight.banks;
    DROP POLICY IF EXISTS member_read ON hindsight.bank_members;
    DROP POLICY IF EXISTS member_admin ON hindsight.bank_members;
END
$$;
CREATE POLICY bank_read ON hindsight.banks FOR SELECT
    USING (created_by = current_user OR hindsight._bank_access(bank_id, current_user, 1));
CREATE POLICY bank_create ON hindsight.banks FOR INSERT
    WITH CHECK (created_by = current_user);
CREATE POLICY bank_admin ON hindsight.banks FOR UPDATE
    USING (hindsight._bank_access(bank_id, current_user, 3))
    WITH CHECK (hindsight._bank_access(bank_id, current_user, 3));
CREATE POLICY bank_admin_delete ON hindsight.banks FOR DELETE
    USING (hindsight._bank_access(bank_id, current_user, 3));
CREATE POLICY member_read ON hindsight.bank_members FOR SELECT
    USING (role_name = current_user OR hindsight._bank_access(bank_id, current_user, 3));
CREATE POLICY member_admin ON hindsight.bank_members FOR ALL
    USING (hindsight._bank_access(bank_id, current_user, 3))
    WITH CHECK (hindsight._bank_access(bank_id, current_user, 3));

CREATE OR REPLACE FUNCTION hindsight.grant_bank(
    bank_id text,
    role name,
    privilege text DEFAULT 'read'
)
RETURNS void
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
BEGIN
    IF hindsight._privilege_level(privilege) IS NULL THEN
        RAISE EXCEPTION 'unknown privilege "%"', privilege
            USING ERRCODE = '22023', HINT = 'Use read (recall), write (retain, delete) or admin (grant, configure).';
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.rolname = role) THEN
        RAISE EXCEPTION 'role "%" does not exist', role USING ERRCODE = '42704';
    END IF;
    PERFORM hindsight.bank_config(bank_id);  -- HS404 when the caller cannot see the bank
    -- row-level security on bank_members lets only the bank's admins write here
    INSERT INTO hindsight.bank_members AS m (bank_id, role_name, privilege)
    VALUES (grant_bank.bank_id, grant_bank.role, grant_bank.privilege)
    ON CONFLICT ON CONSTRAINT bank_members_pkey DO UPDATE
    SET privilege = excluded.privilege, granted_by = excluded.granted_by, granted_at = excluded.granted_at;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE EXCEPTION 'only an admin of bank "%" can grant access to it', grant_bank.bank_id
        USING ERRCODE = '42501';
END
$$;
COMMENT ON FUNCTION hindsight.grant_bank(text, name, text) IS
    'Gives a role (and the roles that are members of it) read, write or admin access to a bank, replacing an '
    'earlier grant. Only the bank''s admins (its creator, admin grantees, superusers) may. Raises HS404 for a bank '
    'the caller cannot see, 42501 for a non-admin, 42704 for an unknown role, 22023 for an unknown privilege.';

CREATE OR REPLACE FUNCTION hindsight.revoke_bank(
    bank_id text,
    role name
)
RETURNS bool
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
BEGIN
    PERFORM hindsight.bank_config(bank_id);
    IF hindsight._bank_level(bank_id, current_user) < 3 AND NOT hindsight._is_superuser(current_user) THEN
        RAISE EXCEPTION 'only an admin of bank "%" can revoke access to it', bank_id USING ERRCODE = '42501';
    END IF;
    DELETE FROM hindsight.bank_members m WHERE m.bank_id = revoke_bank.bank_id AND m.role_name = revoke_bank.role;
    RETURN FOUND;
END
$$;
COMMENT ON FUNCTION hindsight.revoke_bank(text, name) IS
    'Removes a role''s grant on a bank; it takes effect with the next statement. Returns false when there was none. '
    'The creator''s own access is not a grant and stays. Only the bank''s admins may (42501 otherwise).';
