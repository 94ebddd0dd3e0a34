-- User centre: profile and security fields, avatars, enterprise certification, inbox.

ALTER TABLE users ADD COLUMN country_region TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN area TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN office_location TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN notify_url TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN ip_whitelist TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN security_question TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN security_answer_hash TEXT NOT NULL DEFAULT '';  -- keyed hash; the answer is never stored
ALTER TABLE users ADD COLUMN security_email TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN security_phone TEXT NOT NULL DEFAULT '';

CREATE TABLE avatars (
    user_id       BIGINT  PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    content_type  TEXT    NOT NULL,
    data          BLOB    NOT NULL,
    updated_at    BIGINT  NOT NULL
);

-- status: 0 auditing, 1 passed, 2 rejected, 3 withdrawn.
CREATE TABLE certifications (
    id                                INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id                           BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_type                      TEXT    NOT NULL,
    legal_person                      TEXT    NOT NULL,
    legal_person_certificate_type     TEXT    NOT NULL,
    legal_person_certificate_number   TEXT    NOT NULL,  -- encrypted (crypto.rs)
    enterprise_name                   TEXT    NOT NULL,
    enterprise_certificate_type       TEXT    NOT NULL,
    enterprise_certificate_number     TEXT    NOT NULL,  -- encrypted (crypto.rs)
    organization_code                 TEXT    NOT NULL,
    status                            BIGINT  NOT NULL DEFAULT 0,
    reject_reason                     TEXT    NOT NULL DEFAULT '',
    created_at                        BIGINT  NOT NULL,
    decided_at                        BIGINT,
    decided_by                        BIGINT  REFERENCES users (id)
);
CREATE INDEX certifications_user ON certifications (user_id, id);
-- At most one certification under audit per user, even with parallel submissions.
CREATE UNIQUE INDEX certifications_one_auditing ON certifications (user_id) WHERE status = 0;

-- status: 0 unread, 1 read (spec §3 Message).
CREATE TABLE inbox_messages (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL CHECK (kind IN ('message', 'notice', 'todo')),
    title         TEXT    NOT NULL,
    sub_title     TEXT    NOT NULL DEFAULT '',
    avatar        TEXT    NOT NULL DEFAULT '',
    content       TEXT    NOT NULL DEFAULT '',
    message_type  BIGINT  NOT NULL DEFAULT 0,
    status        BIGINT  NOT NULL DEFAULT 0,
    created_at    BIGINT  NOT NULL,
    read_at       BIGINT
);
CREATE INDEX inbox_messages_user ON inbox_messages (user_id, kind, status, id);
