-- The platform's blocklist (风控黑名单): an 11-digit number, or a prefix of 3 to 10 digits,
-- barred from top-ups with the administrator's reason. Servers read it into memory
-- (platform/blocklist.rs) and read it again when (count, newest id) changes.
CREATE TABLE blocked_numbers (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    pattern     TEXT   NOT NULL UNIQUE,
    reason      TEXT   NOT NULL,
    created_by  TEXT   NOT NULL,
    created_at  BIGINT NOT NULL
);
