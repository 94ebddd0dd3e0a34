-- Administrators refresh the number-segment table by upload (orders/segment_admin/): each
-- upload is previewed (what it adds, changes and removes against the table as it stood,
-- `base_version`) and stored with its rows (`data`: gzip of the shipped CSV layout) until
-- it is applied, all rows or none. `segment_state.version` is the id of the upload applied
-- last (0: the shipped default); applying compares and sets it, so an upload previewed
-- against an older table is refused, and other servers read the table again when it moves.
CREATE TABLE segment_uploads (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    file_name     TEXT    NOT NULL,
    format        TEXT    NOT NULL,
    row_count     BIGINT  NOT NULL,
    added         BIGINT  NOT NULL,
    changed       BIGINT  NOT NULL,
    removed       BIGINT  NOT NULL,
    base_version  BIGINT  NOT NULL,
    data          BLOB    NOT NULL,
    created_by    TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL,
    applied_by    TEXT,
    applied_at    BIGINT
);

CREATE TABLE segment_state (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    version  BIGINT  NOT NULL
);
INSERT INTO segment_state (id, version) VALUES (1, 0);
