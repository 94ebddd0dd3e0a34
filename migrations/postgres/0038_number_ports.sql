-- Number portability (携号转网): numbers a supplier reported as moved away from a carrier
-- (answer code 13, failure reason order.failure.number_ported). Later orders for such a
-- number are refused for products of that carrier and accepted for the others without the
-- merchant's confirmation. Servers hold the table in memory (platform/ports.rs) and read it
-- again when (count, newest change) moves.
CREATE TABLE number_ports (
    account       TEXT    PRIMARY KEY,
    -- The carrier the number left (the refused product's; domain::Carrier codes).
    from_carrier  BIGINT  NOT NULL,
    channel_id    BIGINT,
    order_id      BIGINT,
    recorded_at   BIGINT  NOT NULL
);
