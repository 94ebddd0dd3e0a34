-- Legacy MD5 signing for merchants migrating from other platforms (docs/merchant-api.md,
-- "Legacy MD5 signing"): off for every key unless an administrator switches it on for
-- one key; 1 while on. A legacy key still accepts the HMAC-SHA256 headers.
ALTER TABLE api_keys ADD COLUMN legacy_md5 BIGINT NOT NULL DEFAULT 0;

-- The business licence image of a certification (issue 15 point 12): the evidence an
-- administrator sees before approving. Checked by content (PNG, JPEG, WebP), at most
-- 5 MiB, kept here so it follows backups; served to administrators only.
CREATE TABLE certification_licences (
    certification_id  BIGINT  PRIMARY KEY REFERENCES certifications (id),
    content_type      TEXT    NOT NULL,
    data              BYTEA   NOT NULL,
    size_bytes        BIGINT  NOT NULL,
    uploaded_at       BIGINT  NOT NULL
);
