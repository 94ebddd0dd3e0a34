-- The audit page filters by target and by action, newest first; an administrator's
-- step-up (a fresh two-factor code for money actions) lasts until `step_up_until` for
-- the session that confirmed it (unix milliseconds; 0: none).
CREATE INDEX audit_events_target ON audit_events (target, created_at);
CREATE INDEX audit_events_action ON audit_events (action, created_at);
ALTER TABLE sessions ADD COLUMN step_up_until BIGINT NOT NULL DEFAULT 0;
