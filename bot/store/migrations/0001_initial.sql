-- 0001: the initial schema (DESIGN.md §6). Portable SQL: plain types, ON CONFLICT, no
-- SQLite-only syntax, so the same file reads well for a PostgreSQL backend (which would map
-- "INTEGER PRIMARY KEY" to an identity column).
-- Times are ISO-8601 UTC text; JSON columns are text.

CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    locale      TEXT,
    settings    TEXT NOT NULL DEFAULT '{}',
    updated_at  TEXT NOT NULL
);

CREATE TABLE users (
    user_id     INTEGER PRIMARY KEY,
    locale      TEXT,
    created_at  TEXT NOT NULL
);

CREATE TABLE challenges (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,
    host_id     INTEGER NOT NULL REFERENCES users (user_id),
    opponent_id INTEGER REFERENCES users (user_id),
    players     INTEGER NOT NULL,
    status      TEXT NOT NULL,
    guild_id    INTEGER,
    channel_id  INTEGER,
    message_id  INTEGER,
    game_id     INTEGER,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX challenges_status ON challenges (status, guild_id);

-- Who joined a challenge or lobby, in joining order (position 0 = the host).
CREATE TABLE challenge_players (
    challenge_id INTEGER NOT NULL REFERENCES challenges (id),
    user_id      INTEGER NOT NULL REFERENCES users (user_id),
    position     INTEGER NOT NULL,
    joined_at    TEXT NOT NULL,
    PRIMARY KEY (challenge_id, user_id)
);

CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    game           TEXT NOT NULL,
    options        TEXT NOT NULL,
    seed           INTEGER NOT NULL,          -- secret while the game runs
    seats          TEXT NOT NULL,             -- JSON list: seat -> user id (also in game_seats)
    status         TEXT NOT NULL,             -- active | finished
    ply            INTEGER NOT NULL DEFAULT 0,  -- moves played = rows in moves
    to_move        INTEGER,                   -- seat, NULL when finished
    version        INTEGER NOT NULL DEFAULT 0,  -- optimistic lock, +1 on every board change
    snapshot       TEXT NOT NULL,             -- the engine's dump() of the latest state
    last_move      TEXT,
    forced_outcome TEXT,                      -- JSON outcome of a resignation, else NULL
    undo_seat      INTEGER,                   -- seat asking to take its last move back
    undo_consents  TEXT,                      -- JSON list of seats that agreed so far
    challenge_id   INTEGER REFERENCES challenges (id),
    guild_id       INTEGER,
    channel_id     INTEGER,
    thread_id      INTEGER,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX games_thread ON games (thread_id);

CREATE TABLE game_seats (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL REFERENCES users (user_id),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_user ON game_seats (user_id, game_id);

-- The truth of a game: (seed, options, moves) replays it. Append-only, except that an agreed
-- undo moves the last row to undone_moves.
CREATE TABLE moves (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    ply        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    text       TEXT NOT NULL,
    played_at  TEXT NOT NULL,
    UNIQUE (game_id, ply)
);

CREATE TABLE undone_moves (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    ply        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    text       TEXT NOT NULL,
    played_at  TEXT NOT NULL,
    undone_at  TEXT NOT NULL
);
CREATE INDEX undone_moves_game ON undone_moves (game_id, ply);

-- Messages for Discord, written in the same transaction as their cause; delivered by a sender.
CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER REFERENCES games (id),
    kind          TEXT NOT NULL,
    payload       TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    delivered_at  TEXT
);
CREATE INDEX outbox_pending ON outbox (delivered_at, id);
