-- A security history per merchant (issue 52 §1): sign-ins (address, browser), failures
-- and locks, two-factor changes, key and secret events, role and staff changes, password
-- changes. `merchant_id` is whose history the event is in (NULL: an administrator's own
-- account); `username` is the actor's name as it was; `detail` is JSON of
-- `i18n::security::SecurityDetail`, never a password, code, key secret or token.
-- Kept 180 days (`identity::security_history::purge`).
CREATE TABLE security_events (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id    BIGINT,
    user_id        BIGINT,
    username       TEXT    NOT NULL,
    kind           TEXT    NOT NULL,
    detail         TEXT    NOT NULL,
    client_address TEXT    NOT NULL,
    user_agent     TEXT    NOT NULL,
    created_at     BIGINT  NOT NULL
);
-- A merchant's history, newest first; the administrators' list of every merchant.
CREATE INDEX security_events_merchant ON security_events (merchant_id, created_at);
-- The purge of events past 180 days, and the administrators' unfiltered list.
CREATE INDEX security_events_created ON security_events (created_at);
