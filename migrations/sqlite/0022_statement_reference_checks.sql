-- PostgreSQL replaces four row-by-row foreign keys with per-statement checks here
-- (migrations/postgres/0022). SQLite keeps its foreign keys: each check is an index probe
-- inside the single writer, not a query of its own, so there is nothing to gain.
SELECT 1;
