-- The merchant open API (/openapi/v1): keys that sign requests, and the nonces seen, so a
-- captured request cannot be replayed, not even after a restart.

-- At most two active keys per merchant (checked by the server), so a key can be rotated
-- without downtime. The secret is sealed with the server key (src/crypto.rs), bound to
-- the key id; it is shown once when created.
CREATE TABLE api_keys (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    key_id             TEXT    NOT NULL UNIQUE,         -- public, sent as X-Key-Id
    merchant_id        BIGINT  NOT NULL REFERENCES merchants (id),
    secret_enc         TEXT    NOT NULL,                -- sealed secret, never in clear
    created_by         BIGINT  REFERENCES users (id) ON DELETE SET NULL,
    created_at         BIGINT  NOT NULL,
    last_used_at       BIGINT,
    last_used_address  TEXT,
    revoked_at         BIGINT,                          -- NULL while active
    revoked_by         BIGINT  REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX api_keys_merchant ON api_keys (merchant_id, revoked_at);

-- A nonce is refused while its row lives; rows outlive the timestamp window, after which
-- the request would be refused for its timestamp anyway, and are then deleted.
CREATE TABLE api_nonces (
    key_id      TEXT    NOT NULL,
    nonce       TEXT    NOT NULL,
    expires_at  BIGINT  NOT NULL,
    PRIMARY KEY (key_id, nonce)
);
CREATE INDEX api_nonces_expiry ON api_nonces (expires_at);
