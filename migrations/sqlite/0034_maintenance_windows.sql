-- Maintenance windows (维护窗口): a carrier, a carrier in one province, or one channel takes
-- no top-ups for a while, once or recurring in Beijing time (domain/windows.rs). Servers
-- read them into memory (platform/windows.rs) and read them again when
-- (count, newest id, latest change) changes.
--   scope_kind 1 carrier, 2 carrier × province, 3 channel;
--   recurrence 1 once (starts_at, ends_at), 2 daily, 3 weekly (day: 1 Monday … 7 Sunday),
--   4 monthly (day: 1 … 31, the last day in shorter months); span_start/span_end are
--   minutes after midnight, an end at or before the start ends on the next day.
CREATE TABLE maintenance_windows (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    title       TEXT    NOT NULL,
    note        TEXT    NOT NULL DEFAULT '',
    scope_kind  INTEGER NOT NULL,
    carrier     INTEGER,
    province    INTEGER,
    channel_id  BIGINT REFERENCES channels (id) ON DELETE CASCADE,
    recurrence  INTEGER NOT NULL,
    starts_at   BIGINT,
    ends_at     BIGINT,
    day         INTEGER,
    span_start  INTEGER,
    span_end    INTEGER,
    created_by  TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
CREATE INDEX maintenance_windows_channel ON maintenance_windows (channel_id);
