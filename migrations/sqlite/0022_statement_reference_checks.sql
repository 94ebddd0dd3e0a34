-- PostgreSQL replaces the row-by-row foreign key of a batch's lines with a check per
-- statement here (migrations/postgres/0022). SQLite keeps its foreign key: each check is an
-- index probe inside the single writer, not a query of its own, so there is nothing to gain.
SELECT 1;
