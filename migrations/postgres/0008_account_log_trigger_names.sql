-- The append-only triggers of account_log carry the same names on both engines
-- (tests/api/schema.rs compares the schemas): one for UPDATE, one for DELETE.
DROP TRIGGER account_log_no_change ON account_log;
CREATE TRIGGER account_log_no_update BEFORE UPDATE ON account_log
FOR EACH ROW EXECUTE FUNCTION account_log_append_only();
CREATE TRIGGER account_log_no_delete BEFORE DELETE ON account_log
FOR EACH ROW EXECUTE FUNCTION account_log_append_only();
