-- Reconciliation (issue 11) reads a channel's successful attempts of a Beijing day by the
-- time we learned the result; without this index it would scan every attempt of the channel.
CREATE INDEX order_attempts_channel_answered ON order_attempts (channel_id, answered_at);
