-- Orders refused by the merchants' risk controls, counted per Beijing day, merchant and
-- reason (domain::risk::RiskRefusal::name), so that the live monitor shows today's counts
-- of every server, and the same after a restart (platform/live/refusals.rs). A refusal adds
-- to its row; nothing else is kept of a refused order (it was never written).
CREATE TABLE risk_refusals (
    day          BIGINT NOT NULL,
    merchant_id  BIGINT NOT NULL,
    reason       TEXT   NOT NULL,
    count        BIGINT NOT NULL,
    PRIMARY KEY (day, merchant_id, reason)
);
