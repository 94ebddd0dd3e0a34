-- The profit and sales reports' roll-up (issue 52 §3): one row per Beijing day, merchant,
-- channel, carrier, province and product, changed in the same transaction as the orders it
-- counts (orders/counters.rs, after order_counters and order_rollups: the lock order), so a
-- 30-day report reads day rows instead of a million orders.
--   channel_id: the channel that fulfilled a successful (or later reversed) order; 0 for an
--     order no channel fulfilled (in flight, failed, or marked successful by a person);
--   province: the number's province when placed, '' when unknown;
--   orders: every order placed; successes, failures, reversals: those in that status now
--     (the rest are in flight or in review);
--   face_value_fen, sales_fen (the merchant's price), cost_fen (the channel's cost): of the
--     successful orders only, so profit = sales_fen - cost_fen.
CREATE TABLE report_rollups (
    day             BIGINT  NOT NULL,
    merchant_id     BIGINT  NOT NULL,
    channel_id      BIGINT  NOT NULL,
    carrier         BIGINT  NOT NULL,
    province        TEXT    NOT NULL,
    product_id      BIGINT  NOT NULL,
    orders          BIGINT  NOT NULL,
    successes       BIGINT  NOT NULL,
    failures        BIGINT  NOT NULL,
    reversals       BIGINT  NOT NULL,
    face_value_fen  BIGINT  NOT NULL,
    sales_fen       BIGINT  NOT NULL,
    cost_fen        BIGINT  NOT NULL,
    PRIMARY KEY (day, merchant_id, channel_id, carrier, province, product_id)
);
-- A merchant's own report: its rows in a range of days.
CREATE INDEX report_rollups_merchant_day ON report_rollups (merchant_id, day);
INSERT INTO report_rollups (day, merchant_id, channel_id, carrier, province, product_id, orders, successes,
                            failures, reversals, face_value_fen, sales_fen, cost_fen)
    SELECT (created_at + 28800000) / 86400000, merchant_id, COALESCE(channel_id, 0), carrier,
           COALESCE(province, ''), product_id,
           CAST(COUNT(*) AS BIGINT),
           CAST(SUM(CASE WHEN status = 2 THEN 1 ELSE 0 END) AS BIGINT),
           CAST(SUM(CASE WHEN status = 3 THEN 1 ELSE 0 END) AS BIGINT),
           CAST(SUM(CASE WHEN status = 5 THEN 1 ELSE 0 END) AS BIGINT),
           CAST(SUM(CASE WHEN status = 2 THEN face_value_fen ELSE 0 END) AS BIGINT),
           CAST(SUM(CASE WHEN status = 2 THEN price_fen ELSE 0 END) AS BIGINT),
           CAST(SUM(CASE WHEN status = 2 THEN COALESCE(cost_fen, 0) ELSE 0 END) AS BIGINT)
    FROM orders
    GROUP BY (created_at + 28800000) / 86400000, merchant_id, COALESCE(channel_id, 0), carrier,
             COALESCE(province, ''), product_id;
