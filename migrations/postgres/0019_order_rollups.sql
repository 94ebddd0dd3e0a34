-- Order counts rolled up from order_counters (issue 13), so that a list total without the
-- carrier, face value, buyback or serial filters reads a handful of rows instead of summing
-- tens of thousands of detailed counters. One table for both grains, so that a transaction
-- writes all its roll-ups in one statement, keys in sorted order (the lock order), after
-- its detailed counters (orders/counters.rs):
--   all_days = 0: the orders of a merchant, Beijing day, kind and status;
--   all_days = 1: the same over every day (day is 0).
CREATE TABLE order_rollups (
    merchant_id  BIGINT  NOT NULL,
    all_days     BIGINT  NOT NULL,
    day          BIGINT  NOT NULL,
    order_kind   BIGINT  NOT NULL,
    status       BIGINT  NOT NULL,
    count        BIGINT  NOT NULL,
    PRIMARY KEY (merchant_id, all_days, day, order_kind, status)
);
-- Administrators' totals over every merchant: one grain, a range of days.
CREATE INDEX order_rollups_day ON order_rollups (all_days, day);
INSERT INTO order_rollups (merchant_id, all_days, day, order_kind, status, count)
    SELECT merchant_id, 0, day, order_kind, status, CAST(SUM(count) AS BIGINT) FROM order_counters
    GROUP BY merchant_id, day, order_kind, status;
INSERT INTO order_rollups (merchant_id, all_days, day, order_kind, status, count)
    SELECT merchant_id, 1, 0, order_kind, status, CAST(SUM(count) AS BIGINT) FROM order_counters
    GROUP BY merchant_id, order_kind, status;
