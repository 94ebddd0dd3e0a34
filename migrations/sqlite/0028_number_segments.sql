-- Number segments: the province, city and carrier of each 7-digit mobile prefix. Filled at
-- first start from data/segments/cn-segments.csv.gz (libphonenumber's data, see
-- data/segments/SOURCE.md) when empty; the server holds it in memory (platform/segments.rs).
-- province_code is GB/T 2260 (440000); carrier is the server's name (mobile, unicom,
-- telecom, broadnet), NULL where the source names none.
CREATE TABLE number_segments (
    prefix TEXT PRIMARY KEY,
    province_code TEXT NOT NULL,
    province TEXT NOT NULL,
    city TEXT NOT NULL,
    carrier TEXT,
    province_en TEXT NOT NULL,
    city_en TEXT NOT NULL
);

-- The place of an order's number when it was placed (NULL: unknown prefix, or placed before).
ALTER TABLE orders ADD COLUMN province TEXT;
ALTER TABLE orders ADD COLUMN city TEXT;
