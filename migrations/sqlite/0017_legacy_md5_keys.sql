-- Legacy MD5 signing for merchants migrating from other platforms (docs/merchant-api.md,
-- "Legacy MD5 signing"): off for every key unless an administrator switches it on for
-- one key; 1 while on. A legacy key still accepts the HMAC-SHA256 headers.
ALTER TABLE api_keys ADD COLUMN legacy_md5 BIGINT NOT NULL DEFAULT 0;
