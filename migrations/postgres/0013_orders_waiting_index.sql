-- Orders still waiting for a result (pending, processing, manual review): the live
-- monitor reads them at start to count orders in flight and in review and find the
-- oldest, without scanning every order. Partial: finished orders (nearly all) are not in it.
CREATE INDEX orders_waiting ON orders (created_at) WHERE status IN (0, 1, 4);
