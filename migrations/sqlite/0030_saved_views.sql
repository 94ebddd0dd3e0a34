-- Saved views of the console's list pages (issue 52): a user's named filters, columns,
-- density and sort for one page, kept on the server so they follow the user to another
-- browser. `merchant_id` is the owner's merchant (NULL: an administrator's view); a shared
-- view is seen by the owner's merchant's other users, or by the other administrators.
-- `state` is the console's JSON object, at most 8 KiB (checked by the server).
CREATE TABLE saved_views (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    merchant_id BIGINT  REFERENCES merchants (id),
    page        TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    state       TEXT    NOT NULL,
    shared      BIGINT  NOT NULL DEFAULT 0 CHECK (shared IN (0, 1)),
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
-- One name per owner and page; also the index of a user's own views of a page.
CREATE UNIQUE INDEX saved_views_owner_name ON saved_views (user_id, page, name);
-- The views shared on a page within a merchant (or among administrators).
CREATE INDEX saved_views_shared ON saved_views (page, merchant_id) WHERE shared = 1;

-- A user's default view of a page, applied when the page opens without filters; gone with
-- the view.
CREATE TABLE saved_view_defaults (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    page    TEXT   NOT NULL,
    view_id BIGINT NOT NULL REFERENCES saved_views (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, page)
);
