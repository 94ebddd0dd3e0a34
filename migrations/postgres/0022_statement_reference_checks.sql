-- The tables written once per order (orders, account_log, order_batch_rows) check what they
-- refer to once per statement instead of once per row (issue 13). A foreign key checks each
-- inserted row with its own query and row lock: on a 100,000-line batch that was a quarter
-- of PostgreSQL's time (profiled), for four keys that name a handful of distinct rows.
--
-- The guarantees stay those of the foreign keys they replace (NO ACTION):
-- * an insert fails (23503) if a row names a missing parent; it first locks the distinct
--   parents it names FOR KEY SHARE, as a foreign key does, so a concurrent delete waits;
-- * a child's reference never changes (23503 if an update tries);
-- * deleting a parent that rows still name fails (23503). The check runs after the delete
--   and with a fresh snapshot, so it sees a child committed while the delete waited;
-- * a parent's id never changes.
-- SQLite keeps its foreign keys: its checks are index probes inside the writer, not queries.

ALTER TABLE orders DROP CONSTRAINT orders_merchant_id_fkey, DROP CONSTRAINT orders_product_id_fkey;
ALTER TABLE account_log DROP CONSTRAINT account_log_merchant_id_fkey;
ALTER TABLE order_batch_rows DROP CONSTRAINT order_batch_rows_batch_id_fkey;

-- AFTER INSERT, per statement: TG_ARGV[0] the column, TG_ARGV[1] the parent table (key id).
CREATE FUNCTION references_exist() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    missing BIGINT;
BEGIN
    EXECUTE format('SELECT 1 FROM %I WHERE id IN (SELECT DISTINCT %I FROM new_rows) FOR KEY SHARE',
                   TG_ARGV[1], TG_ARGV[0]);
    -- (EXECUTE leaves FOUND alone: the INTO variable says whether a row came back.)
    EXECUTE format('SELECT n.%1$I FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM %2$I p WHERE p.id = n.%1$I) LIMIT 1',
                   TG_ARGV[0], TG_ARGV[1]) INTO missing;
    IF missing IS NOT NULL THEN
        RAISE foreign_key_violation USING MESSAGE = format('%s.%s = %s: no such row in %s',
            TG_TABLE_NAME, TG_ARGV[0], missing, TG_ARGV[1]);
    END IF;
    RETURN NULL;
END;
$$;

-- AFTER DELETE, per statement, on the parent: TG_ARGV[0] the child table, TG_ARGV[1] its column.
CREATE FUNCTION references_gone() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    kept BIGINT;
BEGIN
    EXECUTE format('SELECT o.id FROM old_rows o WHERE EXISTS (SELECT 1 FROM %I c WHERE c.%I = o.id) LIMIT 1',
                   TG_ARGV[0], TG_ARGV[1]) INTO kept;
    IF kept IS NOT NULL THEN
        RAISE foreign_key_violation USING MESSAGE = format('%s %s is still named by %s.%s',
            TG_TABLE_NAME, kept, TG_ARGV[0], TG_ARGV[1]);
    END IF;
    RETURN NULL;
END;
$$;

-- BEFORE UPDATE, per row, fired only when a key changes.
CREATE FUNCTION reference_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE foreign_key_violation USING MESSAGE = format('%s: a key that other rows name cannot change', TG_TABLE_NAME);
END;
$$;

CREATE TRIGGER orders_merchant_exists AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION references_exist('merchant_id', 'merchants');
CREATE TRIGGER orders_product_exists AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION references_exist('product_id', 'products');
CREATE TRIGGER account_log_merchant_exists AFTER INSERT ON account_log REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION references_exist('merchant_id', 'merchants');
CREATE TRIGGER order_batch_rows_batch_exists AFTER INSERT ON order_batch_rows REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION references_exist('batch_id', 'order_batches');

CREATE TRIGGER orders_references_fixed BEFORE UPDATE OF merchant_id, product_id ON orders FOR EACH ROW
    WHEN (OLD.merchant_id <> NEW.merchant_id OR OLD.product_id <> NEW.product_id)
    EXECUTE FUNCTION reference_fixed();
CREATE TRIGGER order_batch_rows_reference_fixed BEFORE UPDATE OF batch_id ON order_batch_rows FOR EACH ROW
    WHEN (OLD.batch_id <> NEW.batch_id) EXECUTE FUNCTION reference_fixed();
CREATE TRIGGER merchants_id_fixed BEFORE UPDATE OF id ON merchants FOR EACH ROW
    WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION reference_fixed();
CREATE TRIGGER products_id_fixed BEFORE UPDATE OF id ON products FOR EACH ROW
    WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION reference_fixed();
CREATE TRIGGER order_batches_id_fixed BEFORE UPDATE OF id ON order_batches FOR EACH ROW
    WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION reference_fixed();

CREATE TRIGGER merchants_orders_gone AFTER DELETE ON merchants REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION references_gone('orders', 'merchant_id');
CREATE TRIGGER merchants_account_log_gone AFTER DELETE ON merchants REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION references_gone('account_log', 'merchant_id');
CREATE TRIGGER products_orders_gone AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION references_gone('orders', 'product_id');
CREATE TRIGGER order_batches_rows_gone AFTER DELETE ON order_batches REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION references_gone('order_batch_rows', 'batch_id');
