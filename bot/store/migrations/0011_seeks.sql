-- 0011: seeks (bot.services.seeks). Portable SQL.

-- A seek is an open challenge (``challenges``: opponent_id NULL, players 2, its status and
-- message) listed in ``/lobby``, with what only a seek has: whether its game is rated, the
-- ratings a joiner must have (``min_rating``/``max_rating``, NULL: no bound) and when it expires
-- (the bot's ``seek_expiry_days`` after it was posted).
CREATE TABLE seeks (
    challenge_id  INTEGER PRIMARY KEY REFERENCES challenges (id),
    rated         INTEGER NOT NULL,
    min_rating    INTEGER,
    max_rating    INTEGER,
    expires_at    TEXT NOT NULL
);
CREATE INDEX seeks_expiry ON seeks (expires_at);
