-- 0010: post-game reviews (bot.services.reviews). Portable SQL.

-- A game's review, made once and reused: the expected scores of every position, the mistakes
-- and the AI's moves instead (JSON, ``bot.services.review.Review.dump``). ``perspective`` is -1
-- for a review from full states (a finished game, which anyone who sees the game may read), or
-- the seat of the player whose view a review of a running game against the AI was made from
-- (theirs alone). ``version`` is the game's version it was made at: a game that moved on since
-- gets a new one.
CREATE TABLE reviews (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    perspective  INTEGER NOT NULL,
    version      INTEGER NOT NULL,
    data         TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (game_id, perspective)
);
