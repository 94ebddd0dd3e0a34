-- Two-factor authentication with an authenticator app (RFC 6238) and the two-step
-- sign-in it brings. Nothing here can give a code away: secrets are sealed with the
-- server key (AES-256-GCM, bound to the user), backup codes and handles are hashes.

-- One row per user with two-factor on; deleted when it is turned off.
CREATE TABLE two_factor (
    user_id         BIGINT  PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret_sealed   TEXT    NOT NULL,           -- Secrets::encrypt, context 'totp:<user_id>'
    enabled_at      BIGINT  NOT NULL,
    last_used_step  BIGINT  NOT NULL            -- latest 30-second step accepted; codes of it or earlier are refused
);

-- A setup waiting for its first code: at most one per user, a newer setup replaces it.
CREATE TABLE two_factor_setups (
    user_id         BIGINT  PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    key_hash        TEXT    NOT NULL UNIQUE,    -- SHA-256 of the temp_key handed to the client
    secret_sealed   TEXT    NOT NULL,           -- context 'totp-setup:<user_id>'
    created_at      BIGINT  NOT NULL,
    expires_at      BIGINT  NOT NULL
);

CREATE TABLE two_factor_backup_codes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    salt        TEXT    NOT NULL,               -- random per code, hex
    code_hash   TEXT    NOT NULL,               -- Secrets::keyed_hash(salt, code), hex
    created_at  BIGINT  NOT NULL,
    used_at     BIGINT
);
CREATE INDEX two_factor_backup_codes_user ON two_factor_backup_codes (user_id, used_at);

-- A sign-in whose password was right and which waits for a two-factor code.
CREATE TABLE pending_logins (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash           TEXT    NOT NULL UNIQUE,   -- SHA-256 of the pending_token
    user_id              BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    password_changed_at  BIGINT  NOT NULL,          -- users.password_changed_at when issued; a change kills it
    created_at           BIGINT  NOT NULL,
    expires_at           BIGINT  NOT NULL,
    client_address       TEXT    NOT NULL,
    used_at              BIGINT
);
CREATE INDEX pending_logins_user ON pending_logins (user_id);
