-- Granting and revoking access to banks (row-level security, sql/schema/004-security.sql).

CREATE OR REPLACE FUNCTION hindsight.grant_bank(
    bank_id text,
    role name,
    privilege text DEFAULT 'read'
)
RETURNS void
LANGUAGE plpgsql
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
    SET privilege = excluded.privilege, granted_by = current_user, granted_at = now();
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
SET search_path FROM CURRENT
AS $$
BEGIN
    PERFORM hindsight.bank_config(bank_id);
    IF NOT bank_id = ANY (hindsight._banks_for(current_user, 'admin')) AND NOT hindsight._is_superuser(current_user) THEN
        RAISE EXCEPTION 'only an admin of bank "%" can revoke access to it', bank_id USING ERRCODE = '42501';
    END IF;
    DELETE FROM hindsight.bank_members m WHERE m.bank_id = revoke_bank.bank_id AND m.role_name = revoke_bank.role;
    RETURN FOUND;
END
$$;
COMMENT ON FUNCTION hindsight.revoke_bank(text, name) IS
    'Removes a role''s grant on a bank; it takes effect with the next statement. Returns false when there was none. '
    'The creator''s own access is not a grant and stays. Only the bank''s admins may (42501 otherwise).';
