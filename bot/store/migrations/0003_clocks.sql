-- 0003: correspondence play (bot.store.clocks). Portable SQL, times as ISO-8601 UTC text.

-- The time control asked for by a challenge ('untimed', '3d', '3d+1d'), used when it starts.
CREATE TABLE challenge_time_controls (
    challenge_id  INTEGER PRIMARY KEY REFERENCES challenges (id),
    time_control  TEXT NOT NULL
);

-- One row per game: its time control and clock, updated in the same transaction as each move.
CREATE TABLE game_clocks (
    game_id       INTEGER PRIMARY KEY REFERENCES games (id),
    time_control  TEXT NOT NULL,
    banks         TEXT NOT NULL,            -- JSON list: seat -> seconds left in the bank
    turn_started  TEXT NOT NULL,            -- when the current turn began
    to_move       INTEGER,                  -- seat whose clock runs; NULL once the game is over
    ply           INTEGER NOT NULL,         -- moves played when the current turn began
    deadline      TEXT,                     -- NULL when untimed or over; vacations included
    updated_at    TEXT NOT NULL
);
CREATE INDEX game_clocks_deadline ON game_clocks (deadline);

-- A reminder is sent once per (game, turn, threshold), even across restarts.
CREATE TABLE sent_reminders (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    ply        INTEGER NOT NULL,
    threshold  TEXT NOT NULL,               -- due_soon | overdue
    deadline   TEXT NOT NULL,
    sent_at    TEXT NOT NULL,
    UNIQUE (game_id, ply, threshold)
);

-- Vacations pause the clocks of every game of the user; ends_at moves earlier if cut short.
CREATE TABLE vacations (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users (user_id),
    starts_at   TEXT NOT NULL,
    ends_at     TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX vacations_user ON vacations (user_id, ends_at);

CREATE TABLE user_settings (
    user_id       INTEGER PRIMARY KEY REFERENCES users (user_id),
    dm_reminders  INTEGER NOT NULL DEFAULT 0,   -- 1: also send reminders by direct message
    updated_at    TEXT NOT NULL
);
