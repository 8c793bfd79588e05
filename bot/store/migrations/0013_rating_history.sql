-- 0013: rating history (bot/store/ratings.py), one row per player per rated game, written in
-- the same transaction as the rating it records. Portable SQL.
-- Ratings given before this table existed are not reconstructed: the games are known, but not
-- the order and values the ratings went through (no backfill; the history starts here).

-- ``system`` is 'glicko' (rating, rd) or 'skill' (openskill mu, sigma): the values in the
-- system's own units, before and after the game; ``id`` numbers the rows in the order they
-- were written, so a player's largest id is their latest rating version.
CREATE TABLE rating_history (
    id               INTEGER PRIMARY KEY,
    user_id          INTEGER NOT NULL REFERENCES users (user_id),
    game             TEXT NOT NULL,
    system           TEXT NOT NULL,
    game_id          INTEGER NOT NULL REFERENCES games (id),
    value_before     REAL NOT NULL,
    deviation_before REAL NOT NULL,
    value            REAL NOT NULL,
    deviation        REAL NOT NULL,
    rated_at         TEXT NOT NULL,
    UNIQUE (game_id, user_id)
);
CREATE INDEX rating_history_user ON rating_history (user_id, rated_at);

-- A player's finished games, newest first (/history, the games per month of /profile).
CREATE INDEX games_finished ON games (status, updated_at);
