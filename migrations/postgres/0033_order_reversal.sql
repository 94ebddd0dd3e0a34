-- Reversal (冲正): a success the supplier reported reversed afterwards, or an administrator
-- reversed by hand. The order moves to status 5 (reversed) and keeps its finish time; it
-- gains when it was reversed and why (the supplier's words or the administrator's reason).
ALTER TABLE orders ADD COLUMN reversed_at BIGINT;
ALTER TABLE orders ADD COLUMN reversal_reason TEXT;
