-- Risk controls at placement (风控): per merchant, one order in flight per number (on unless
-- an administrator turns it off), per-number daily limits (orders and fen) and a daily cap on
-- the merchant's order amount, 0 meaning no limit. A merchant without a row has the defaults.
-- Servers read the table into memory (platform/risk.rs) and read it again when its newest
-- revision changes.
CREATE TABLE merchant_risk (
    merchant_id          BIGINT  PRIMARY KEY REFERENCES merchants (id),
    single_flight        BIGINT  NOT NULL DEFAULT 1,
    number_daily_orders  BIGINT  NOT NULL DEFAULT 0,
    number_daily_fen     BIGINT  NOT NULL DEFAULT 0,
    daily_cap_fen        BIGINT  NOT NULL DEFAULT 0,
    revision             BIGINT  NOT NULL,
    updated_at           BIGINT  NOT NULL
);

-- An order placed while its merchant had one order in flight per number (older orders: 0).
-- The unique partial index is the guard under concurrency: a second unfinished order
-- (pending 0, processing 1, manual review 4) for one number of one merchant cannot commit,
-- and the number is free again as soon as the order's status leaves those three, whatever
-- path ends it.
ALTER TABLE orders ADD COLUMN single_flight BIGINT  NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX orders_number_in_flight ON orders (merchant_id, account)
    WHERE single_flight = 1 AND status IN (0, 1, 4);
