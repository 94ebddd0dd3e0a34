-- A batch's valid lines are stored a range at a time (migrations/postgres/0025 says why).
CREATE TABLE order_batch_ranges (
    batch_id    BIGINT  NOT NULL REFERENCES order_batches (id),
    first_line  BIGINT  NOT NULL,
    last_line   BIGINT  NOT NULL,
    lines       TEXT    NOT NULL,   -- JSON: [[line_no, account, product_key, merchant_order_id, price_fen], ...]
    placed      BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (batch_id, first_line)
);

INSERT INTO order_batch_ranges (batch_id, first_line, last_line, lines, placed)
SELECT batch_id, MIN(line_no), MAX(line_no),
       json_group_array(json_array(line_no, account, product_key, merchant_order_id, price_fen) ORDER BY line_no),
       done
FROM (
    SELECT batch_id, line_no, account, product_key, merchant_order_id, price_fen, done,
           (ROW_NUMBER() OVER (PARTITION BY batch_id, done ORDER BY line_no) - 1) / 5000 AS range_no
    FROM (
        SELECT r.*, CASE WHEN r.outcome IN (2, 3) OR EXISTS (
            SELECT 1 FROM orders o JOIN order_batches b ON b.id = r.batch_id
            WHERE o.merchant_id = b.merchant_id AND o.merchant_order_id = r.merchant_order_id
              AND o.batch_id = r.batch_id) THEN 1 ELSE 0 END AS done
        FROM order_batch_rows r WHERE r.outcome <> 1
    )
)
GROUP BY batch_id, done, range_no;

DELETE FROM order_batch_rows WHERE outcome IN (0, 2);
