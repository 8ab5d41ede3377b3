-- The example's memories: seeds/documents.csv retained into its banks, each created first if missing
-- (the pre-hook). hindsight.retain_text extracts the facts in the database; retaining a document id
-- again replaces that document, and its unchanged text is not extracted again, so building twice
-- leaves the same memories. One row per document: the memory units this build stored for it (none for a
-- document whose text did not change).
{{ config(pre_hook="select hindsight.create_bank(bank_id, if_not_exists => true)
                    from (select distinct bank_id from {{ ref('documents') }}) as banks") }}
select d.bank_id, d.document_id, count(r.unit_id) as new_units
from {{ ref('documents') }} as d
cross join lateral hindsight.retain_text(d.bank_id, d.content, document_id => d.document_id) as r
group by d.bank_id, d.document_id
