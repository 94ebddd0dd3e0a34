-- Staff with roles (issue 52 §1): each merchant user has one role, which decides what
-- it may call (identity/permissions.rs). Every user before this one is an owner, as is a
-- merchant's first user; an administrator's row keeps the default and never reads it.
ALTER TABLE users ADD COLUMN merchant_role TEXT NOT NULL DEFAULT 'owner'
    CHECK (merchant_role IN ('owner', 'finance', 'operator', 'developer', 'viewer'));
-- An owner disables a user (no sign-in, sessions ended) and enables it again; a removed
-- user is kept (orders, funding requests and the audit name it) but never signs in again
-- and no longer appears among the merchant's staff. Its username stays taken.
ALTER TABLE users ADD COLUMN disabled_at BIGINT;
ALTER TABLE users ADD COLUMN removed_at BIGINT;
-- The owner requires two-factor of every user of the merchant: one without it may only
-- set it up (or sign out) until it is on.
ALTER TABLE merchants ADD COLUMN require_two_factor BIGINT NOT NULL DEFAULT 0;
