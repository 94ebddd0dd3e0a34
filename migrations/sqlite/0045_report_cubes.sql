-- Coarser report roll-ups beside report_rollups (issue 52 §3): at a million orders the
-- per-province roll-up barely rolls up (819,263 rows for 1,000,000 orders; a 30-day report
-- summed ~410,000 of them). Each cube keeps the day, two of merchant, channel, province and
-- product, and the carrier (but cube 6); the others hold -1 (ids) or '*' (province):
--   cube 1: channel × product;   cube 2: channel × province;   cube 3: province × product;
--   cube 4: merchant × channel;  cube 5: merchant × product (a merchant's own report);
--   cube 6: merchant × province, without the carrier (with it, it barely rolls up).
-- Written with report_rollups, in the same batch of the same transaction, after it
-- (orders/report_rollup.rs); a report reads the smallest cube that holds every dimension it
-- breaks down or filters by (orders/reports/query.rs), else report_rollups.
CREATE TABLE report_cubes (
    cube            BIGINT  NOT NULL,
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
    PRIMARY KEY (cube, day, merchant_id, channel_id, carrier, province, product_id)
) WITHOUT ROWID;
-- A merchant's own report: its rows of a merchant cube in a range of days.
CREATE INDEX report_cubes_merchant_channel ON report_cubes (merchant_id, day) WHERE cube = 4;
CREATE INDEX report_cubes_merchant_product ON report_cubes (merchant_id, day) WHERE cube = 5;
CREATE INDEX report_cubes_merchant_province ON report_cubes (merchant_id, day) WHERE cube = 6;
INSERT INTO report_cubes (cube, day, merchant_id, channel_id, carrier, province, product_id, orders, successes,
                          failures, reversals, face_value_fen, sales_fen, cost_fen)
    SELECT 1, day, -1, channel_id, carrier, '*', product_id,
           CAST(SUM(orders) AS BIGINT), CAST(SUM(successes) AS BIGINT), CAST(SUM(failures) AS BIGINT),
           CAST(SUM(reversals) AS BIGINT), CAST(SUM(face_value_fen) AS BIGINT), CAST(SUM(sales_fen) AS BIGINT),
           CAST(SUM(cost_fen) AS BIGINT)
    FROM report_rollups GROUP BY day, channel_id, carrier, product_id
    UNION ALL
    SELECT 2, day, -1, channel_id, carrier, province, -1,
           CAST(SUM(orders) AS BIGINT), CAST(SUM(successes) AS BIGINT), CAST(SUM(failures) AS BIGINT),
           CAST(SUM(reversals) AS BIGINT), CAST(SUM(face_value_fen) AS BIGINT), CAST(SUM(sales_fen) AS BIGINT),
           CAST(SUM(cost_fen) AS BIGINT)
    FROM report_rollups GROUP BY day, channel_id, carrier, province
    UNION ALL
    SELECT 3, day, -1, -1, carrier, province, product_id,
           CAST(SUM(orders) AS BIGINT), CAST(SUM(successes) AS BIGINT), CAST(SUM(failures) AS BIGINT),
           CAST(SUM(reversals) AS BIGINT), CAST(SUM(face_value_fen) AS BIGINT), CAST(SUM(sales_fen) AS BIGINT),
           CAST(SUM(cost_fen) AS BIGINT)
    FROM report_rollups GROUP BY day, carrier, province, product_id
    UNION ALL
    SELECT 4, day, merchant_id, channel_id, carrier, '*', -1,
           CAST(SUM(orders) AS BIGINT), CAST(SUM(successes) AS BIGINT), CAST(SUM(failures) AS BIGINT),
           CAST(SUM(reversals) AS BIGINT), CAST(SUM(face_value_fen) AS BIGINT), CAST(SUM(sales_fen) AS BIGINT),
           CAST(SUM(cost_fen) AS BIGINT)
    FROM report_rollups GROUP BY day, merchant_id, channel_id, carrier
    UNION ALL
    SELECT 5, day, merchant_id, -1, carrier, '*', product_id,
           CAST(SUM(orders) AS BIGINT), CAST(SUM(successes) AS BIGINT), CAST(SUM(failures) AS BIGINT),
           CAST(SUM(reversals) AS BIGINT), CAST(SUM(face_value_fen) AS BIGINT), CAST(SUM(sales_fen) AS BIGINT),
           CAST(SUM(cost_fen) AS BIGINT)
    FROM report_rollups GROUP BY day, merchant_id, carrier, product_id
    UNION ALL
    SELECT 6, day, merchant_id, -1, -1, province, -1,
           CAST(SUM(orders) AS BIGINT), CAST(SUM(successes) AS BIGINT), CAST(SUM(failures) AS BIGINT),
           CAST(SUM(reversals) AS BIGINT), CAST(SUM(face_value_fen) AS BIGINT), CAST(SUM(sales_fen) AS BIGINT),
           CAST(SUM(cost_fen) AS BIGINT)
    FROM report_rollups GROUP BY day, merchant_id, province;
