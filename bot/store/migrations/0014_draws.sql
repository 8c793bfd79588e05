-- 0014: draw offers (bot.services.draws). Portable SQL.

-- A player's offer of a draw by agreement in a running game. ``status``: pending, then
-- accepted, declined or lapsed (the game went on without an answer, or ended). ``keep_turn``
-- is 1 while the offer was made on the sender's own turn and they have not moved since: that
-- move keeps it open (lichess's "offer, then move"); any later move lapses it.
CREATE TABLE draw_offers (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    ply         INTEGER NOT NULL,
    keep_turn   INTEGER NOT NULL,
    status      TEXT NOT NULL,
    answered_by INTEGER,
    channel_id  INTEGER,
    message_id  INTEGER,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
-- At most one pending offer per player and game, whatever races.
CREATE UNIQUE INDEX draw_offers_one_pending ON draw_offers (game_id, seat) WHERE status = 'pending';
CREATE INDEX draw_offers_status ON draw_offers (status, game_id);
