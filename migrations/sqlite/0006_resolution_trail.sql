-- What an administrator gave as the reason when resolving an order by hand, shown on
-- the order's timeline next to their name (the note says what happened, this says why).
ALTER TABLE order_events ADD COLUMN detail TEXT NOT NULL DEFAULT '';
