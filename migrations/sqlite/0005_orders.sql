-- Products, quotes, merchant accounts and their append-only log, orders with their
-- timeline and per-day counters, order batches, and the sandbox channel's own book.
-- Money is integer fen (BIGINT); times are unix milliseconds; flags are 0/1 integers.
-- Small enumerations are integers too (documented beside each column) so that the
-- hot indexes stay narrow.

CREATE TABLE products (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    product_key     TEXT    NOT NULL UNIQUE,     -- e.g. MOBILE-DIRECT-100
    name            TEXT    NOT NULL,            -- e.g. 中国移动话费直充100元
    business_name   TEXT    NOT NULL,            -- 话费直充 / 话费卡密
    carrier         BIGINT  NOT NULL,            -- 1 China Mobile, 2 China Unicom, 3 China Telecom
    product_kind    BIGINT  NOT NULL,            -- 1 direct phone credit, 2 card secret
    face_value_fen  BIGINT  NOT NULL CHECK (face_value_fen > 0),
    created_at      BIGINT  NOT NULL
);

CREATE TABLE quotes (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id     BIGINT  NOT NULL REFERENCES merchants (id),
    product_id      BIGINT  NOT NULL REFERENCES products (id),
    price_fen       BIGINT  NOT NULL CHECK (price_fen > 0),  -- the supply price the merchant pays
    status          BIGINT  NOT NULL DEFAULT 1,               -- 1 on, 0 off
    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL,
    UNIQUE (merchant_id, product_id)
);

CREATE TABLE merchant_accounts (
    merchant_id       BIGINT  PRIMARY KEY REFERENCES merchants (id),
    balance_fen       BIGINT  NOT NULL DEFAULT 0 CHECK (balance_fen >= 0),
    credit_limit_fen  BIGINT  NOT NULL DEFAULT 0 CHECK (credit_limit_fen >= 0),
    credit_used_fen   BIGINT  NOT NULL DEFAULT 0 CHECK (credit_used_fen >= 0 AND credit_used_fen <= credit_limit_fen),
    total_topup_fen   BIGINT  NOT NULL DEFAULT 0,
    updated_at        BIGINT  NOT NULL
);

CREATE TABLE orders (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id        BIGINT  NOT NULL REFERENCES merchants (id),
    merchant_order_id  TEXT    NOT NULL,
    order_no           TEXT    NOT NULL,
    system_order_id    TEXT    NOT NULL,
    product_id         BIGINT  NOT NULL REFERENCES products (id),
    product_key        TEXT    NOT NULL,
    product_name       TEXT    NOT NULL,
    carrier            BIGINT  NOT NULL,
    order_kind         BIGINT  NOT NULL,            -- 1 ordinary, 2 card secret, 3 on-behalf
    account            TEXT    NOT NULL,            -- the recharge account (phone number)
    face_value_fen     BIGINT  NOT NULL,
    price_fen          BIGINT  NOT NULL,
    paid_balance_fen   BIGINT  NOT NULL,            -- how the price was paid, so a refund returns it where it came from
    paid_credit_fen    BIGINT  NOT NULL,
    status             BIGINT  NOT NULL,            -- 0 pending, 1 processing, 2 success, 3 failure, 4 manual review
    buyback            BIGINT  NOT NULL DEFAULT 0,
    created_at         BIGINT  NOT NULL,
    deadline_at        BIGINT  NOT NULL,
    submitted_at       BIGINT,
    finished_at        BIGINT,
    duration_ms        BIGINT,                      -- finished_at - created_at, kept for the time-taken filter
    callback_at        BIGINT,
    serial_no          TEXT,
    failure_reason     TEXT,
    card_no_enc        TEXT,                        -- AES-GCM, context card_no:<id>
    card_secret_enc    TEXT,                        -- AES-GCM, context card_secret:<id>
    batch_id           BIGINT,
    remark             TEXT    NOT NULL DEFAULT '',
    created_by         BIGINT,
    lease_owner        TEXT,                        -- the worker holding the order, while it does
    lease_until        BIGINT,                      -- the worker looks at the order again after this
    UNIQUE (merchant_id, merchant_order_id)
);
CREATE UNIQUE INDEX orders_order_no ON orders (order_no);
CREATE UNIQUE INDEX orders_system_order_id ON orders (system_order_id);
-- Keyset pagination: a list is one merchant's (or every merchant's) orders, of one kind
-- or all, by time. The trailing columns are the list filters: rows that do not match are
-- skipped inside the index, and a partial day's count never touches the table.
CREATE INDEX orders_merchant_time ON orders (merchant_id, created_at, id, order_kind, status, carrier, face_value_fen, buyback);
CREATE INDEX orders_merchant_kind_time ON orders (merchant_id, order_kind, created_at, id, status, carrier, face_value_fen, buyback);
CREATE INDEX orders_merchant_kind_status_time ON orders (merchant_id, order_kind, status, created_at, id, carrier, face_value_fen, buyback);
CREATE INDEX orders_kind_time ON orders (order_kind, created_at, id);
CREATE INDEX orders_time ON orders (created_at, id);
CREATE INDEX orders_merchant_account ON orders (merchant_id, account, created_at);
CREATE INDEX orders_batch ON orders (batch_id) WHERE batch_id IS NOT NULL;
-- The worker's queue: only orders in flight that a channel handles.
CREATE INDEX orders_in_flight ON orders (lease_until) WHERE status IN (0, 1) AND order_kind IN (1, 2);

-- Status changes of an order, for its timeline.
CREATE TABLE order_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id    BIGINT  NOT NULL REFERENCES orders (id),
    status      BIGINT  NOT NULL,
    note        TEXT    NOT NULL DEFAULT '',
    actor_id    BIGINT,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX order_events_order ON order_events (order_id, id);

-- Orders per merchant, Beijing day and every dimension the list filters by, kept in step
-- with orders inside the same transactions: totals and charts without COUNT(*) over millions.
CREATE TABLE order_counters (
    merchant_id     BIGINT  NOT NULL,
    day             BIGINT  NOT NULL,       -- days since 1970-01-01 in Beijing time (UTC+8)
    order_kind      BIGINT  NOT NULL,
    status          BIGINT  NOT NULL,
    carrier         BIGINT  NOT NULL,
    face_value_fen  BIGINT  NOT NULL,
    buyback         BIGINT  NOT NULL,
    has_serial      BIGINT  NOT NULL,
    count           BIGINT  NOT NULL,
    PRIMARY KEY (merchant_id, day, order_kind, status, carrier, face_value_fen, buyback, has_serial)
);

-- Every change of a merchant's balance or credit. Append-only (the triggers refuse
-- changes): the sum of amounts per account type is the account's current figure.
CREATE TABLE account_log (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id         BIGINT  NOT NULL REFERENCES merchants (id),
    account_type        BIGINT  NOT NULL,   -- 1 balance, 2 credit (available credit)
    change_type         BIGINT  NOT NULL,   -- 1 order debit, 2 refund, 3 top-up, 4 credit granted, 5 repayment, 6 adjustment
    amount_fen          BIGINT  NOT NULL,   -- signed change of that account
    balance_before_fen  BIGINT  NOT NULL,
    balance_after_fen   BIGINT  NOT NULL,
    credit_before_fen   BIGINT  NOT NULL,   -- available credit (limit - used)
    credit_after_fen    BIGINT  NOT NULL,
    order_id            BIGINT,
    order_no            TEXT,
    actor_id            BIGINT,             -- the user; NULL for the system (worker)
    actor_name          TEXT    NOT NULL,
    remark              TEXT    NOT NULL DEFAULT '',
    created_at          BIGINT  NOT NULL
);
CREATE INDEX account_log_merchant_time ON account_log (merchant_id, created_at, id);
CREATE INDEX account_log_time ON account_log (created_at, id);
CREATE INDEX account_log_order ON account_log (order_no);
CREATE TRIGGER account_log_no_update BEFORE UPDATE ON account_log
BEGIN SELECT RAISE(ABORT, 'account_log is append-only'); END;
CREATE TRIGGER account_log_no_delete BEFORE DELETE ON account_log
BEGIN SELECT RAISE(ABORT, 'account_log is append-only'); END;

CREATE TABLE order_batches (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id     BIGINT  NOT NULL REFERENCES merchants (id),
    file_name       TEXT    NOT NULL,
    status          BIGINT  NOT NULL,       -- 0 previewed, 1 submitted
    total_rows      BIGINT  NOT NULL,
    valid_rows      BIGINT  NOT NULL,
    placed_rows     BIGINT  NOT NULL DEFAULT 0,
    failed_rows     BIGINT  NOT NULL DEFAULT 0,
    total_fen       BIGINT  NOT NULL,       -- price of the valid rows at preview
    created_by      BIGINT  NOT NULL,
    created_at      BIGINT  NOT NULL,
    submitted_at    BIGINT
);
CREATE INDEX order_batches_merchant ON order_batches (merchant_id, id);

CREATE TABLE order_batch_rows (
    batch_id           BIGINT  NOT NULL REFERENCES order_batches (id),
    line_no            BIGINT  NOT NULL,
    account            TEXT    NOT NULL,
    product_key        TEXT    NOT NULL,
    merchant_order_id  TEXT    NOT NULL,
    price_fen          BIGINT  NOT NULL DEFAULT 0,
    outcome            BIGINT  NOT NULL,   -- 0 valid (not yet placed), 1 invalid, 2 placed, 3 refused at submit
    reason             TEXT    NOT NULL DEFAULT '',  -- a message key
    order_id           BIGINT,
    PRIMARY KEY (batch_id, line_no)
);

-- The sandbox channel's own record of what it was asked, as a real supplier keeps one:
-- it answers status queries after a restart of ours.
CREATE TABLE sandbox_channel_orders (
    system_order_id  TEXT    PRIMARY KEY,
    received_at      BIGINT  NOT NULL,
    ready_at         BIGINT  NOT NULL,
    succeeds         BIGINT  NOT NULL,
    serial_no        TEXT    NOT NULL,      -- card-secret deliveries are derived from it
    submissions      BIGINT  NOT NULL DEFAULT 1  -- how often it was handed the order (tests expect 1)
);
