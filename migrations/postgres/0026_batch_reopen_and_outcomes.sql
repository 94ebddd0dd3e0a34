-- A preview's warnings about lines repeating a recent order or an earlier line of the file,
-- as the preview found them (JSON: {"rows": n, "lines": [first 1,000]}), so that a preview
-- reopened later shows the same warnings. NULL for batches previewed before this migration.
ALTER TABLE order_batches ADD COLUMN duplicates TEXT;

-- The batch list counts each batch's orders by status: the batch index carries the status,
-- so the count reads the index alone (it replaces the batch-only index; no index is added).
DROP INDEX orders_batch;
CREATE INDEX orders_batch ON orders (batch_id, status) WHERE batch_id IS NOT NULL;
