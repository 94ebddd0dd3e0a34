-- A product's speed (1 fast 快充, 2 slow 慢充: the order's deadline follows it) and its
-- sales area (GB/T 2260 province codes joined by commas, sorted; empty: national).
ALTER TABLE products ADD COLUMN speed BIGINT NOT NULL DEFAULT 1;
ALTER TABLE products ADD COLUMN provinces TEXT NOT NULL DEFAULT '';
