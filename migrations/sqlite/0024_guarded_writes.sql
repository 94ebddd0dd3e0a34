-- PostgreSQL gains the check that ends a write guarded by rows read without their lock
-- (migrations/postgres/0024). SQLite needs none: its placements hold the database's write
-- lock from their first read, and a guarded batch run statement by statement checks each
-- guard's row count itself (sql.rs).
SELECT 1;
