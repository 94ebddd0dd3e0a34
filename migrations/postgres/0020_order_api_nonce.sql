-- The open-API call that placed an order, as `key_id:nonce` (issue 10). A replay of that call
-- is the same request, so it names the same merchant order id: finding the order and this
-- column refuses it, without writing the nonce into api_nonces, whose random key cost the
-- single writer a page per order. Calls that place nothing still record theirs there.
ALTER TABLE orders ADD COLUMN api_nonce TEXT;
