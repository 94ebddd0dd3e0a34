-- Administrators run merchants: a user created or reset by an administrator holds a
-- temporary password and must choose their own before anything else (1 until they do);
-- audit rows name what they acted on (`target`: `merchant:10002`, `user:7`, `order:123`)
-- so the audit page can filter by it, and are listed newest first by time.
ALTER TABLE users ADD COLUMN must_change_password BIGINT NOT NULL DEFAULT 0;
ALTER TABLE audit_events ADD COLUMN target TEXT NOT NULL DEFAULT '';
CREATE INDEX audit_events_created ON audit_events (created_at);
