-- Merchants' funding requests (充值申请, issue 52): a merchant files the bank transfer it
-- made (amount, the transfer's reference, the payer, a proof image, a note); an
-- administrator approves it, which tops the balance up through the ledger in the same
-- transaction and links the request to that account-log record, or rejects it with a
-- reason. The merchant may withdraw it while it is pending.
CREATE TABLE funding_requests (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    merchant_id       BIGINT  NOT NULL REFERENCES merchants (id),
    amount_fen        BIGINT  NOT NULL CHECK (amount_fen > 0),
    -- As the merchant typed it, and trimmed and upper-cased (the key compared).
    bank_reference    TEXT    NOT NULL,
    reference_key     TEXT    NOT NULL,
    payer_name        TEXT    NOT NULL,
    note              TEXT    NOT NULL DEFAULT '',
    -- The proof image, checked by its content as the business licence is (PNG, JPEG, WebP).
    proof_type        TEXT    NOT NULL,
    proof             BLOB    NOT NULL,
    proof_size        BIGINT  NOT NULL,
    -- pending, approved, rejected, withdrawn
    status            TEXT    NOT NULL DEFAULT 'pending',
    reason            TEXT,
    created_by        BIGINT  NOT NULL REFERENCES users (id),
    decided_by        BIGINT  REFERENCES users (id),
    decided_at        BIGINT,
    -- The top-up's account-log record of an approved request.
    ledger_log_id     BIGINT  REFERENCES account_log (id),
    created_at        BIGINT  NOT NULL,
    updated_at        BIGINT  NOT NULL
);
-- A merchant's requests newest first, and the administrators' queue by status.
CREATE INDEX funding_requests_merchant ON funding_requests (merchant_id, id);
CREATE INDEX funding_requests_status ON funding_requests (status, id);
-- One transfer funds once on the whole platform, whatever its spelling. A withdrawn or
-- rejected request gives its reference back, so the transfer can be filed again correctly.
CREATE UNIQUE INDEX funding_requests_reference ON funding_requests (reference_key)
    WHERE status IN ('pending', 'approved');
