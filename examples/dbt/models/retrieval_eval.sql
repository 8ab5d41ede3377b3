-- Recall@k per bank over a table of questions with the document that answers each.
-- Batch recall in one statement: hindsight.recall in a LATERAL join. The query embedding is NULL,
-- so the bank's embedding provider embeds each question in the database; a column of embeddings
-- stored next to the questions (computed once by the driver) can be passed instead.
-- depends_on: {{ ref('memories') }}  (the example's bank is filled first)
with settings as (
    select k from {{ ref('eval_settings') }}
),
hits as (
    select q.bank_id, q.question_id, q.gold_document_id, r.rank, r.document_id
    from {{ ref('eval_questions') }} q
    cross join lateral hindsight.recall(q.bank_id, q.question, null::vector, max_tokens => 4096) as r
),
per_question as (
    select q.bank_id, q.question_id,
           bool_or(h.document_id = q.gold_document_id and h.rank <= s.k) as found
    from {{ ref('eval_questions') }} q
    cross join settings s
    left join hits h on h.bank_id = q.bank_id and h.question_id = q.question_id
    group by q.bank_id, q.question_id
)
select bank_id,
       (select k from settings) as k,
       count(*) as questions,
       count(*) filter (where found) as found,
       round(avg(case when found then 1.0 else 0.0 end), 3) as recall_at_k
from per_question
group by bank_id
