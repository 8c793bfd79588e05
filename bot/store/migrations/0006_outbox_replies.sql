-- 0006: exactly-once delivery of the outbox. Portable SQL.

-- The interaction token of the player's command that a row answers (the interaction's
-- response carries no nonce): after a restart, a pending row with a token is first looked up
-- with GET .../messages/@original. Cleared once the row is delivered (a token is a
-- short-lived credential; nothing keeps it longer than needed).
ALTER TABLE outbox ADD COLUMN reply_token TEXT;
-- The newest undo request of a game is the newest undo_requested row (bot.services.games).
CREATE INDEX outbox_game_kind ON outbox (game_id, kind, id);
-- Rows holding a token are found by it once the interaction has answered.
CREATE INDEX outbox_reply ON outbox (reply_token);
