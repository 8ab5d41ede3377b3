-- Derived data, kept exact by the statement-level triggers of sql/functions/common/_derived.sql
-- (which also says why a restore rebuilds it and why the triggers are right on Citus):
--
--   _bank_counts    per bank: memory units and their total keyword length
--   _bm25_terms     per bank and term: document frequency
--   _bm25_postings  per bank, term and unit: term frequency and the unit's length
--   _entity_cooccurrences  per bank and pair of entities: units mentioning both
-- (the BM25 keyword backend reads the middle two; the graph arm reads unit_count). Callers may
-- read the derived tables of their banks but never write them.

CREATE TABLE hindsight._bank_counts (
    bank_id      text PRIMARY KEY REFERENCES hindsight.banks ON DELETE CASCADE,
    unit_count   bigint NOT NULL DEFAULT 0,
    total_length bigint NOT NULL DEFAULT 0
);
COMMENT ON TABLE hindsight._bank_counts IS
    'Derived: memory units per bank and the sum of their keyword lengths (BM25 avgdl). Kept by triggers.';

CREATE TABLE hindsight._bm25_terms (
    bank_id text NOT NULL,
    term    text NOT NULL,
    df      int NOT NULL CHECK (df >= 0),  -- rows at 0 are removed by the same trigger
    PRIMARY KEY (bank_id, term)
);
COMMENT ON TABLE hindsight._bm25_terms IS
    'Derived: in how many memory units of the bank each search_vector lexeme occurs. Kept by triggers.';

CREATE TABLE hindsight._bm25_postings (
    bank_id    text NOT NULL,
    term       text NOT NULL,
    unit_id    uuid NOT NULL,
    tf         int NOT NULL,
    doc_length int NOT NULL,
    PRIMARY KEY (bank_id, term, unit_id) INCLUDE (tf, doc_length)
);
COMMENT ON TABLE hindsight._bm25_postings IS
    'Derived: per term, the units it occurs in with its frequency there and the unit''s length, read only for '
    'the query''s terms. Kept by triggers.';

CREATE TABLE hindsight._entity_cooccurrences (
    bank_id         text NOT NULL REFERENCES hindsight.banks ON DELETE CASCADE,
    entity_id       uuid NOT NULL,
    other_entity_id uuid NOT NULL,
    unit_count      int NOT NULL CHECK (unit_count >= 0),  -- rows at 0 are removed by the same trigger
    PRIMARY KEY (bank_id, entity_id, other_entity_id)
);
COMMENT ON TABLE hindsight._entity_cooccurrences IS
    'Derived: for each pair of entities (both directions), in how many memory units both occur. Kept by triggers; '
    'entity resolution reads it, hindsight.entity_stats shows it.';

