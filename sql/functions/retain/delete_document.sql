-- Deleting a document and everything retained from it.

CREATE OR REPLACE FUNCTION hindsight.delete_document(
    bank_id text,
    document_id text
)
RETURNS bool
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    deleted bool;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank
    PERFORM hindsight._lock_bank(bank_id);
    DELETE FROM hindsight.documents d
    WHERE d.bank_id = delete_document.bank_id AND d.document_id = delete_document.document_id;
    deleted := FOUND;
    IF deleted THEN
        PERFORM hindsight._delete_orphan_entities(bank_id);
    END IF;
    RETURN deleted;
END
$$;
COMMENT ON FUNCTION hindsight.delete_document(text, text) IS
    'Deletes a document with its chunks, memory units, their links and entity references, and the entities no '
    'memory mentions any more. Returns false when the bank has no such document; HS404 for an unknown bank.';
