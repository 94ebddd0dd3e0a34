-- Merchants, users, sessions, sign-in throttling and the audit trail.
-- Times are unix milliseconds (BIGINT); flags are 0/1 integers, so that one set of
-- queries serves SQLite and PostgreSQL alike.

CREATE TABLE merchants (
    id          INTEGER PRIMARY KEY,            -- the public merchant id (mid)
    name        TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);

CREATE TABLE users (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    username             TEXT    NOT NULL,
    password_hash        TEXT    NOT NULL,
    role                 TEXT    NOT NULL CHECK (role IN ('admin', 'user')),
    merchant_id          BIGINT  REFERENCES merchants (id),
    name                 TEXT    NOT NULL DEFAULT '',
    avatar               TEXT    NOT NULL DEFAULT '',
    job                  TEXT    NOT NULL DEFAULT '',
    organization         TEXT    NOT NULL DEFAULT '',
    location             TEXT    NOT NULL DEFAULT '',
    email                TEXT    NOT NULL DEFAULT '',
    introduction         TEXT    NOT NULL DEFAULT '',
    personal_website     TEXT    NOT NULL DEFAULT '',
    phone                TEXT    NOT NULL DEFAULT '',
    certification        BIGINT  NOT NULL DEFAULT 0,
    password_changed_at  BIGINT  NOT NULL,
    created_at           BIGINT  NOT NULL,
    CHECK ((role = 'user') = (merchant_id IS NOT NULL))
);
CREATE UNIQUE INDEX users_username_unique ON users (lower(username));

CREATE TABLE sessions (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash      TEXT    NOT NULL UNIQUE,    -- SHA-256 of the token; the token itself is never stored
    user_id         BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at      BIGINT  NOT NULL,
    last_used_at    BIGINT  NOT NULL,
    expires_at      BIGINT  NOT NULL,           -- absolute end; the idle timeout is checked against last_used_at
    client_address  TEXT    NOT NULL,
    user_agent      TEXT    NOT NULL,
    revoked_at      BIGINT,
    revoked_reason  TEXT
);
CREATE INDEX sessions_user ON sessions (user_id, revoked_at);

CREATE TABLE login_throttle (
    throttle_key       TEXT    PRIMARY KEY,     -- 'account:<lowercase username>' or 'address:<ip>'
    failures           BIGINT  NOT NULL,
    window_started_at  BIGINT  NOT NULL,
    locked_until       BIGINT  NOT NULL DEFAULT 0
);

CREATE TABLE audit_events (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         BIGINT  REFERENCES users (id) ON DELETE SET NULL,
    action          TEXT    NOT NULL,
    detail          TEXT    NOT NULL DEFAULT '',
    client_address  TEXT    NOT NULL DEFAULT '',
    created_at      BIGINT  NOT NULL
);
CREATE INDEX audit_events_user ON audit_events (user_id, created_at);
