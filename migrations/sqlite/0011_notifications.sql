-- Order notifications (callbacks to merchants): the signing secret, the outbox and every
-- delivery attempt. See src/notify/ and docs/merchant-api-callbacks.md.

-- One Standard Webhooks signing secret per merchant, sealed (src/crypto.rs, context
-- `webhook_secret:<mid>`). After a rotation the previous one signs alongside until
-- `previous_until`, so a merchant can switch its verifier without missing a callback.
CREATE TABLE webhook_secrets (
    merchant_id     BIGINT  PRIMARY KEY REFERENCES merchants (id),
    secret_enc      TEXT    NOT NULL,
    previous_enc    TEXT,
    previous_until  BIGINT,
    rotated_at      BIGINT  NOT NULL
);

-- The outbox: one row per event, written in the transaction that finished the order.
-- state: 0 pending (never tried), 1 delivered, 2 failed (a retry is scheduled),
-- 3 exhausted (the schedule ran out). The sender claims due rows with a lease
-- (lease_owner, and next_attempt_at pushed past the lease), as the order worker does.
CREATE TABLE notifications (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id         TEXT    NOT NULL UNIQUE,       -- the body's event_id and the webhook-id header
    merchant_id      BIGINT  NOT NULL REFERENCES merchants (id),
    order_id         BIGINT  REFERENCES orders (id), -- NULL for a test event
    event_type       TEXT    NOT NULL,
    url              TEXT    NOT NULL,              -- the order's notify_url, else the profile's, when written
    body             TEXT    NOT NULL,              -- the JSON sent, fixed when written
    state            BIGINT  NOT NULL,
    attempts         BIGINT  NOT NULL DEFAULT 0,
    next_attempt_at  BIGINT  NOT NULL,
    lease_owner      TEXT,
    created_at       BIGINT  NOT NULL,
    delivered_at     BIGINT,
    last_error       TEXT
);
CREATE INDEX notifications_due ON notifications (next_attempt_at) WHERE state IN (0, 2);
CREATE INDEX notifications_merchant_time ON notifications (merchant_id, created_at, id);
CREATE INDEX notifications_time ON notifications (created_at, id);
CREATE INDEX notifications_order ON notifications (order_id);

-- Every attempt, for the order drawer and the Notifications page.
CREATE TABLE notification_attempts (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    notification_id  BIGINT  NOT NULL REFERENCES notifications (id),
    attempt          BIGINT  NOT NULL,              -- 1, 2, ...
    started_at       BIGINT  NOT NULL,
    latency_ms       BIGINT  NOT NULL,
    http_status      BIGINT,                        -- NULL when no answer came
    delivered        BIGINT  NOT NULL,              -- 1 delivered, 0 not
    response_excerpt TEXT    NOT NULL DEFAULT '',   -- the first 1 KB of the answer
    error            TEXT,
    UNIQUE (notification_id, attempt)
);
