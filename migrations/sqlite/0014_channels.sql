-- Upstream channels (suppliers), what each supplies at what cost, and every attempt to
-- fulfil an order at a channel. Money is integer fen; times are unix milliseconds; flags
-- are 0/1 integers (as everywhere in this schema).

CREATE TABLE channels (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    code             TEXT    NOT NULL UNIQUE,          -- in the callback URL; never changes
    name             TEXT    NOT NULL,
    adapter          TEXT    NOT NULL,                 -- the protocol: 'sandbox' or 'http-json'
    base_url         TEXT    NOT NULL DEFAULT '',
    secret_sealed    TEXT,                             -- AES-GCM, context channel_secret:<code>
    timeout_ms       BIGINT  NOT NULL DEFAULT 5000,
    enabled          BIGINT  NOT NULL DEFAULT 1,
    paused_until     BIGINT,                           -- paused by the health check until then
    pause_reason     TEXT,
    probe_order_id   BIGINT,                           -- after a pause: the one order that probes it
    unknown_streak   BIGINT  NOT NULL DEFAULT 0,       -- unknown answers in a row
    health_since     BIGINT  NOT NULL DEFAULT 0,       -- the success ratio counts attempts from here (last resume)
    balance_fen      BIGINT,                           -- last balance read (NULL: not known)
    balance_at       BIGINT,
    low_balance_fen  BIGINT  NOT NULL DEFAULT 0,       -- alert below this (0: never)
    created_at       BIGINT  NOT NULL,
    updated_at       BIGINT  NOT NULL
);

CREATE TABLE channel_products (
    channel_id  BIGINT  NOT NULL REFERENCES channels (id),
    product_id  BIGINT  NOT NULL REFERENCES products (id),
    cost_fen    BIGINT  NOT NULL CHECK (cost_fen >= 0),
    priority    BIGINT  NOT NULL DEFAULT 0,            -- higher goes first
    weight      BIGINT  NOT NULL DEFAULT 1 CHECK (weight >= 0),  -- share within one priority
    enabled     BIGINT  NOT NULL DEFAULT 1,
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (channel_id, product_id)
);
CREATE INDEX channel_products_product ON channel_products (product_id);

CREATE TABLE order_attempts (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id           BIGINT  NOT NULL REFERENCES orders (id),
    channel_id         BIGINT  NOT NULL REFERENCES channels (id),
    attempt_no         BIGINT  NOT NULL,              -- 1, 2, ... per order: one channel after the other
    upstream_order_id  TEXT    NOT NULL,              -- what the channel knows it as (order + attempt)
    cost_fen           BIGINT  NOT NULL,
    requested_at       BIGINT  NOT NULL,
    answered_at        BIGINT,
    outcome            TEXT    NOT NULL DEFAULT 'pending'
                       CHECK (outcome IN ('pending', 'unknown', 'success', 'failed')),
    answer             TEXT    NOT NULL DEFAULT '',   -- the channel's last answer (code and message)
    serial_no          TEXT,
    latency_ms         BIGINT,                        -- request to final answer
    probe              BIGINT  NOT NULL DEFAULT 0,    -- the probe of a paused channel
    lease_owner        TEXT,                          -- the worker talking to the channel about it
    lease_until        BIGINT,
    UNIQUE (order_id, attempt_no)
);
CREATE UNIQUE INDEX order_attempts_upstream ON order_attempts (channel_id, upstream_order_id);
CREATE INDEX order_attempts_channel_time ON order_attempts (channel_id, requested_at);

ALTER TABLE orders ADD COLUMN channel_id BIGINT;     -- the channel that fulfilled it
ALTER TABLE orders ADD COLUMN cost_fen BIGINT;       -- what that channel charged us

-- The built-in sandbox is a channel like any other, supplying the whole catalogue.
INSERT INTO channels (code, name, adapter, created_at, updated_at) VALUES ('sandbox', '沙箱渠道', 'sandbox', 0, 0);
INSERT INTO channel_products (channel_id, product_id, cost_fen, priority, weight, enabled, updated_at)
    SELECT (SELECT id FROM channels WHERE code = 'sandbox'), id, face_value_fen * 98 / 100, 0, 1, 1, 0 FROM products;
