-- Two columns several features read: whether a merchant is disabled (administrators switch
-- it; sign-in, sessions, the open API and new orders refuse a disabled merchant, while its
-- orders in flight still settle), and the notify URL an order was placed with (the open API
-- accepts one per order; the notification sender falls back to the profile's).
ALTER TABLE merchants ADD COLUMN disabled_at BIGINT;
ALTER TABLE orders ADD COLUMN notify_url TEXT;
