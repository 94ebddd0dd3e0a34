-- The sandbox channel can reverse (冲正) a success, as a real supplier does: drawn at
-- submission (`--sandbox-reversal-ratio`), due `reversed_at`; a periodic sweep claims due
-- reversals (`reversal_claimed_until`, a lease: a server that stopped half-way leaves it to
-- another after it) and reports each through the supplier callback's path, once delivered
-- marking `reversal_delivered_at` (supply/sandbox_reversals.rs). Its statement lists such
-- a success as `reversed`.
ALTER TABLE sandbox_channel_orders ADD COLUMN reversed_at BIGINT;
ALTER TABLE sandbox_channel_orders ADD COLUMN reversal_claimed_until BIGINT;
ALTER TABLE sandbox_channel_orders ADD COLUMN reversal_delivered_at BIGINT;
-- The sweep's reversals still to deliver, by when they are due.
CREATE INDEX sandbox_channel_orders_reversals ON sandbox_channel_orders (reversed_at)
    WHERE reversed_at IS NOT NULL AND reversal_delivered_at IS NULL;
