-- A batch's valid lines are stored a range at a time (issue 13): one row of JSON per range
-- of lines that a submit places in one transaction, instead of one row per line. Storing
-- 100,000 lines a row each was 0.34-0.43 s of a preview (a heap row and a key entry per
-- line); as 40 ranges it is a few tens of milliseconds. Invalid lines, and lines refused at
-- submit, keep a row each in order_batch_rows, with their reason.
--
-- `placed` is set in the transaction that places the range: a range is placed whole or not
-- at all, so the flag says whether a submit has dealt with it.
CREATE TABLE order_batch_ranges (
    batch_id    BIGINT  NOT NULL REFERENCES order_batches (id),
    first_line  BIGINT  NOT NULL,
    last_line   BIGINT  NOT NULL,
    lines       TEXT    NOT NULL,   -- JSON: [[line_no, account, product_key, merchant_order_id, price_fen], ...]
    placed      BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (batch_id, first_line)
);
-- Out of line and uncompressed: compressing 100,000 lines (7 MB of JSON) took longer than
-- the preview's whole store (pglz; bench/README.md); a range is read once or twice.
ALTER TABLE order_batch_ranges ALTER COLUMN lines SET STORAGE EXTERNAL;

-- Existing valid lines move into ranges. A line counts as dealt with when it was marked
-- placed or refused, or its order exists; ranges are cut separately for lines dealt with
-- and lines still waiting, so a batch whose submit was cut short finishes as before.
INSERT INTO order_batch_ranges (batch_id, first_line, last_line, lines, placed)
SELECT batch_id, MIN(line_no), MAX(line_no),
       json_agg(json_build_array(line_no, account, product_key, merchant_order_id, price_fen) ORDER BY line_no)::text,
       done
FROM (
    SELECT r.batch_id, r.line_no, r.account, r.product_key, r.merchant_order_id, r.price_fen, d.done,
           (ROW_NUMBER() OVER (PARTITION BY r.batch_id, d.done ORDER BY r.line_no) - 1) / 2500 AS range_no
    FROM order_batch_rows r
    JOIN order_batches b ON b.id = r.batch_id
    CROSS JOIN LATERAL (
        SELECT CASE WHEN r.outcome IN (2, 3) OR EXISTS (
            SELECT 1 FROM orders o WHERE o.merchant_id = b.merchant_id AND o.merchant_order_id = r.merchant_order_id
              AND o.batch_id = r.batch_id) THEN 1 ELSE 0 END AS done
    ) d
    WHERE r.outcome <> 1
) numbered
GROUP BY batch_id, done, range_no;

-- Placed lines are known by their orders; refused ones keep their row and reason.
DELETE FROM order_batch_rows WHERE outcome IN (0, 2);
