-- A message-center notice may open a page of the console (`link`, a route such as
-- `/finance/account`), and one caused by an event that can be seen twice (a retried
-- call, two servers, a crash between attempts) carries `dedupe_key`: the second copy is
-- not written.
ALTER TABLE inbox_messages ADD COLUMN link TEXT;
ALTER TABLE inbox_messages ADD COLUMN dedupe_key TEXT;
CREATE UNIQUE INDEX inbox_messages_dedupe ON inbox_messages (user_id, dedupe_key);

-- An audit event's details as data (a JSON object naming its template and parameters),
-- rendered in the reader's language; `detail` stays for rows written before.
ALTER TABLE audit_events ADD COLUMN params TEXT;

-- Whether a batch still has an unfinished order, asked as each of its orders finishes (a
-- batch is finished, and its merchant told, when none is left).
CREATE INDEX orders_batch_unfinished ON orders (batch_id) WHERE batch_id IS NOT NULL AND status IN (0, 1, 4);
