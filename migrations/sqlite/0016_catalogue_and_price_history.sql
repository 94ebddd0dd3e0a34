-- The product catalogue is administered: a product can be switched off (1 on, 0 off)
-- instead of deleted once quotes or orders refer to it; an off product takes no orders.
-- Every change of a merchant's supply price is kept (who, when, from, to) in
-- quote_price_history, written in the same transaction as the change. `old_price_fen`
-- is NULL for a quote's first price. `source`: 1 single edit, 2 bulk rule, 3 import.
ALTER TABLE products ADD COLUMN status BIGINT NOT NULL DEFAULT 1;
ALTER TABLE products ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;

CREATE TABLE quote_price_history (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id     BIGINT  NOT NULL REFERENCES merchants (id),
    product_id      BIGINT  NOT NULL REFERENCES products (id),
    old_price_fen   BIGINT,
    new_price_fen   BIGINT  NOT NULL,
    source          BIGINT  NOT NULL,
    changed_by      BIGINT,
    changed_at      BIGINT  NOT NULL
);
CREATE INDEX quote_price_history_merchant ON quote_price_history (merchant_id, changed_at, id);

-- The live monitor reads the notification outbox every 10 seconds: attempts of the last
-- hour (failure ratio) and notifications given up on in the last day (alerts), by range.
CREATE INDEX notification_attempts_started ON notification_attempts (started_at);
CREATE INDEX notifications_exhausted ON notifications (created_at) WHERE state = 3;
