-- The append-only triggers of account_log carry the same names on both engines
-- (tests/api/schema.rs compares the schemas). SQLite's already do
-- (account_log_no_update, account_log_no_delete): PostgreSQL's are renamed to match.
SELECT 1;
