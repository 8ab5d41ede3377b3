-- Re-embedding a bank with another model, resumable: reembed_begin names the model, reembed_store
-- keeps each batch's vectors beside the ones in use (memory_units.embedding_next, committed batch
-- by batch), reembed_finish swaps them in and records the model in one transaction. Until then
-- the bank keeps answering with its old model. The driver runs the steps (hindsight-pg reembed).

CREATE OR REPLACE FUNCTION hindsight.reembed_begin(bank_id text, model text)
RETURNS bigint
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    current_model text := hindsight.bank_config(reembed_begin.bank_id)->>'embedding_model';  -- HS404
    pending text;
BEGIN
    IF model IS NULL OR btrim(model) = '' THEN
        RAISE EXCEPTION 'model must name an embedding model' USING ERRCODE = '22023',
            HINT = 'all-MiniLM-L6-v2, multilingual-e5-small, or a sentence-transformers model path.';
    END IF;
    PERFORM hindsight._lock_bank(bank_id);
    SELECT b.reembed_model INTO pending FROM hindsight.banks b WHERE b.bank_id = reembed_begin.bank_id;
    IF pending IS DISTINCT FROM model THEN
        -- another model than the one a stopped run was moving to (or none): start over
        UPDATE hindsight.memory_units u SET embedding_next = NULL
        WHERE u.bank_id = reembed_begin.bank_id AND u.embedding_next IS NOT NULL;
        UPDATE hindsight.banks b SET reembed_model = nullif(model, current_model)
        WHERE b.bank_id = reembed_begin.bank_id;
        IF NOT FOUND THEN  -- row-level security: only the bank's admins update it
            RAISE EXCEPTION 'only an admin of bank "%" may re-embed it', bank_id USING ERRCODE = '42501',
                HINT = 'An admin grants it with hindsight.grant_bank(bank_id, role, ''admin'').';
        END IF;
    END IF;
    IF model = current_model THEN
        RETURN 0;
    END IF;
    RETURN (SELECT count(*) FROM hindsight.memory_units u
            WHERE u.bank_id = reembed_begin.bank_id AND u.embedding_next IS NULL);
END
$$;
COMMENT ON FUNCTION hindsight.reembed_begin(text, text) IS
    'Starts (or resumes) re-embedding a bank with model: returns the number of memory units still without a '
    'vector of it (0 when model is already the bank''s embedding_model, which also cancels a run in progress). A '
    'run towards another model is discarded. Admins of the bank only. Errors: HS404 unknown bank, 22023 no '
    'model, 42501 not an admin.';

CREATE OR REPLACE FUNCTION hindsight._reembed_model(bank_id text, model text)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path FROM CURRENT
AS $$
DECLARE
    pending text;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank
    SELECT b.reembed_model INTO pending FROM hindsight.banks b WHERE b.bank_id = _reembed_model.bank_id;
    IF pending IS NULL THEN
        RAISE EXCEPTION 'bank "%" is not being re-embedded', bank_id USING ERRCODE = '55000',
            HINT = 'Start with hindsight.reembed_begin(bank_id, model).';
    END IF;
    IF pending IS DISTINCT FROM model THEN
        RAISE EXCEPTION 'bank "%" is being re-embedded with %, not %', bank_id, pending, coalesce(model, 'NULL')
            USING ERRCODE = '55000', HINT = 'Another run moves it to another model: let it finish, or start over '
                                            'with hindsight.reembed_begin(bank_id, model).';
    END IF;
END
$$;
COMMENT ON FUNCTION hindsight._reembed_model(text, text) IS
    'Raises 55000 unless bank_id is being re-embedded with model (HS404 for an unknown bank): a run towards another '
    'model (started since) must not store into, or finish, this one.';

CREATE OR REPLACE FUNCTION hindsight.reembed_store(bank_id text, model text, unit_ids uuid[], embeddings vector[])
RETURNS int
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    stored int;
BEGIN
    PERFORM hindsight._reembed_model(bank_id, model);
    IF coalesce(cardinality(unit_ids), 0) <> coalesce(cardinality(embeddings), 0) THEN
        RAISE EXCEPTION 'unit_ids has % ids for % embeddings', coalesce(cardinality(unit_ids), 0),
            coalesce(cardinality(embeddings), 0) USING ERRCODE = '22023';
    END IF;
    UPDATE hindsight.memory_units u SET embedding_next = e.embedding
    FROM unnest(unit_ids, embeddings) AS e(unit_id, embedding)
    WHERE u.bank_id = reembed_store.bank_id AND u.id = e.unit_id;
    GET DIAGNOSTICS stored = ROW_COUNT;
    RETURN stored;
END
$$;
COMMENT ON FUNCTION hindsight.reembed_store(text, text, uuid[], vector[]) IS
    'Keeps model''s vectors of a batch of memory units (embedding_next, beside the vectors in use) during a '
    're-embedding with model; returns how many units it updated (a unit deleted meanwhile is skipped). Errors: HS404 '
    'unknown bank, 55000 no re-embedding with model in progress, 22023 arrays of different lengths.';

CREATE OR REPLACE FUNCTION hindsight.reembed_finish(
    bank_id text,
    model text,
    mental_model_ids uuid[] DEFAULT '{}',
    mental_model_embeddings vector[] DEFAULT '{}'
)
RETURNS bigint
LANGUAGE plpgsql
SET citus.allow_nested_distributed_execution = on
SET search_path FROM CURRENT
AS $$
DECLARE
    missing bigint;
    swapped bigint;
BEGIN
    PERFORM hindsight.bank_config(bank_id);  -- HS404 for an unknown bank
    PERFORM hindsight._lock_bank(bank_id);   -- no retain slips a unit in between the check and the swap
    PERFORM hindsight._reembed_model(bank_id, model);
    SELECT count(*) INTO missing FROM hindsight.memory_units u
    WHERE u.bank_id = reembed_finish.bank_id AND u.embedding_next IS NULL;
    IF missing > 0 THEN
        RAISE EXCEPTION '% memory units of bank "%" have no % vector yet', missing, bank_id, model
            USING ERRCODE = 'HS425', HINT = 'Store them (hindsight.reembed_store) and finish again.';
    END IF;
    IF coalesce(cardinality(mental_model_ids), 0) <> coalesce(cardinality(mental_model_embeddings), 0) THEN
        RAISE EXCEPTION 'mental_model_ids has % ids for % embeddings', coalesce(cardinality(mental_model_ids), 0),
            coalesce(cardinality(mental_model_embeddings), 0) USING ERRCODE = '22023';
    END IF;
    IF EXISTS (SELECT FROM hindsight.mental_models m WHERE m.bank_id = reembed_finish.bank_id
                 AND m.embedding IS NOT NULL AND NOT m.id = ANY (coalesce(mental_model_ids, '{}'))) THEN
        RAISE EXCEPTION 'every mental model of bank "%" with a vector needs one of %', bank_id, model
            USING ERRCODE = '55000', HINT = 'Pass their ids and new vectors (the vector of their content).';
    END IF;
    UPDATE hindsight.memory_units u SET embedding = u.embedding_next, embedding_next = NULL
    WHERE u.bank_id = reembed_finish.bank_id;
    GET DIAGNOSTICS swapped = ROW_COUNT;
    UPDATE hindsight.mental_models m SET embedding = e.embedding
    FROM unnest(mental_model_ids, mental_model_embeddings) AS e(id, embedding)
    WHERE m.bank_id = reembed_finish.bank_id AND m.id = e.id;
    UPDATE hindsight.banks b SET config = b.config || jsonb_build_object('embedding_model', model), reembed_model = NULL
    WHERE b.bank_id = reembed_finish.bank_id;
    RETURN swapped;
END
$$;
COMMENT ON FUNCTION hindsight.reembed_finish(text, text, uuid[], vector[]) IS
    'Ends a re-embedding with model in one transaction, under the bank''s write lock: every memory unit''s next '
    'vector replaces its vector, the mental models get the given vectors, and the bank''s config records model as '
    'its embedding_model. Returns the number of units swapped. Errors: HS404 unknown bank; 55000 no re-embedding '
    'with model in progress (another run moved it to another model) or a mental model with a vector left out; '
    'HS425 a unit still without a next vector (retained since the last reembed_store: store it and finish '
    'again); 22023 arrays of different lengths.';
