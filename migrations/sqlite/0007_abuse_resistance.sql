-- Abuse resistance: retry-safe money calls, and sign-in throttling that attackers
-- cannot turn against an account's owner.

-- The first answer to an `Idempotency-Key` (src/idempotency.rs), claimed in the same
-- transaction as the money it moved, so both commit or neither does.
CREATE TABLE idempotency_keys (
    user_id          BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,  -- who sent the key
    idempotency_key  TEXT    NOT NULL,
    endpoint         TEXT    NOT NULL,      -- the path called
    request_digest   TEXT    NOT NULL,      -- SHA-256 of the body with sorted keys
    response         TEXT,                  -- the answer's `data` (JSON) to replay
    created_at       BIGINT  NOT NULL,
    PRIMARY KEY (user_id, idempotency_key)
);

-- Addresses an account signed in from successfully: a lock caused by failures from
-- elsewhere does not shut them out (30 days, see auth/throttle.rs).
CREATE TABLE login_known_addresses (
    user_id          BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address_key      TEXT    NOT NULL,      -- the throttle's address key (IPv6: its /64)
    last_success_at  BIGINT  NOT NULL,
    PRIMARY KEY (user_id, address_key)
);

-- Attempts refused unchecked while a key was locked: counted here instead of one
-- audit row each (the lock's first refusal is audited).
ALTER TABLE login_throttle ADD COLUMN refused BIGINT NOT NULL DEFAULT 0;
