-- Runs once per node at first start (docker-entrypoint-initdb.d).
CREATE EXTENSION IF NOT EXISTS citus;
CREATE EXTENSION IF NOT EXISTS hindsight_pg CASCADE;
