-- Runs once at first start: pg_search, hindsight_pg, and the BM25 index (Chinese-aware tokenizer).
CREATE EXTENSION IF NOT EXISTS pg_search;
CREATE EXTENSION IF NOT EXISTS hindsight_pg CASCADE;
SELECT hindsight.enable_pg_search('chinese_compatible');
