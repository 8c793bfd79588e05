-- 0008: rematches, and the lookups of everyday play. Portable SQL.

-- A rematch asked for after a game ended: who pressed Rematch so far, and the game it became
-- once every player had (bot.services.rematches).
CREATE TABLE rematches (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id),
    consents     TEXT NOT NULL,             -- JSON list of user ids, in the order they asked
    new_game_id  INTEGER REFERENCES games (id),
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);

-- The open challenges a user sent (the same challenge is not sent twice) and those due to
-- expire; a server's games (the game numbers suggested as one types).
CREATE INDEX challenges_host ON challenges (host_id, status);
CREATE INDEX challenges_open_age ON challenges (status, created_at);
CREATE INDEX games_guild ON games (guild_id, updated_at);
