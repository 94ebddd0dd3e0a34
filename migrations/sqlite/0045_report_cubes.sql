-- Coarser report roll-ups beside report_rollups (issue 52 §3): at a million orders the
-- per-province roll-up barely rolls up (819,263 rows for 1,000,000 orders; a 30-day report
-- summed ~410,000 of them), so each cube keeps carrier and product and only one of merchant,
-- channel and province; the dimensions a cube does not keep hold -1 (ids) or '*' (province).
--   cube 1: day × channel × carrier × product (also every report without merchant or province);
--   cube 2: day × province × carrier × product;
--   cube 3: day × merchant × carrier × product (a merchant's own report).
-- Written with report_rollups, in the same batch of the same transaction (orders/report_rollup.rs),
-- after it; a report reads the smallest cube that holds what it breaks down and filters by.
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
-- A merchant's own report: its rows of the merchant cube in a range of days.
CREATE INDEX report_cubes_merchant_day ON report_cubes (merchant_id, day) WHERE cube = 3;
INSERT INTO report_cubes (cube, day, merchant_id, channel_id, carrier, province, product_id, orders, successes,
                          failures, reversals, face_value_fen, sales_fen, cost_fen)
    SELECT 1, day, -1, channel_id, carrier, '*', product_id, CAST(SUM(orders) AS BIGINT),
           CAST(SUM(successes) AS BIGINT), CAST(SUM(failures) AS BIGINT), CAST(SUM(reversals) AS BIGINT),
           CAST(SUM(face_value_fen) AS BIGINT), CAST(SUM(sales_fen) AS BIGINT), CAST(SUM(cost_fen) AS BIGINT)
    FROM report_rollups GROUP BY day, channel_id, carrier, product_id
    UNION ALL
    SELECT 2, day, -1, -1, carrier, province, product_id, CAST(SUM(orders) AS BIGINT),
           CAST(SUM(successes) AS BIGINT), CAST(SUM(failures) AS BIGINT), CAST(SUM(reversals) AS BIGINT),
           CAST(SUM(face_value_fen) AS BIGINT), CAST(SUM(sales_fen) AS BIGINT), CAST(SUM(cost_fen) AS BIGINT)
    FROM report_rollups GROUP BY day, carrier, province, product_id
    UNION ALL
    SELECT 3, day, merchant_id, -1, carrier, '*', product_id, CAST(SUM(orders) AS BIGINT),
           CAST(SUM(successes) AS BIGINT), CAST(SUM(failures) AS BIGINT), CAST(SUM(reversals) AS BIGINT),
           CAST(SUM(face_value_fen) AS BIGINT), CAST(SUM(sales_fen) AS BIGINT), CAST(SUM(cost_fen) AS BIGINT)
    FROM report_rollups GROUP BY day, merchant_id, carrier, product_id;
