-- Order counts rolled up from order_counters (issue 13): per merchant, day, kind and status,
-- and per merchant, kind and status over all time. A list total without carrier, face value,
-- buyback or serial filters reads a handful of these rows instead of summing tens of
-- thousands of detailed counters. Written in the same statements as order_counters
-- (orders/counters.rs), so the three always agree.
CREATE TABLE order_counter_days (
    merchant_id  BIGINT  NOT NULL,
    day          BIGINT  NOT NULL,
    order_kind   BIGINT  NOT NULL,
    status       BIGINT  NOT NULL,
    count        BIGINT  NOT NULL,
    PRIMARY KEY (merchant_id, day, order_kind, status)
);
CREATE TABLE order_counter_totals (
    merchant_id  BIGINT  NOT NULL,
    order_kind   BIGINT  NOT NULL,
    status       BIGINT  NOT NULL,
    count        BIGINT  NOT NULL,
    PRIMARY KEY (merchant_id, order_kind, status)
);
INSERT INTO order_counter_days (merchant_id, day, order_kind, status, count)
    SELECT merchant_id, day, order_kind, status, CAST(SUM(count) AS BIGINT) FROM order_counters
    GROUP BY merchant_id, day, order_kind, status;
INSERT INTO order_counter_totals (merchant_id, order_kind, status, count)
    SELECT merchant_id, order_kind, status, CAST(SUM(count) AS BIGINT) FROM order_counters
    GROUP BY merchant_id, order_kind, status;
