-- A channel's coverage: the provinces (GB/T 2260 codes, sorted, joined by commas; empty =
-- national) whose numbers it tops up for a product, in the same stored form as
-- `products.provinces`. Routing reads it with the row it already reads (no further query)
-- and passes over a channel whose coverage lacks the order's province.
ALTER TABLE channel_products ADD COLUMN provinces TEXT NOT NULL DEFAULT '';
