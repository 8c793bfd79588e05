-- 0012: notifications a player controls (bot.store.notify). Portable SQL.

-- The daily digest by direct message: off while digest_hour is NULL. The hour is local to
-- time_zone (an IANA name, "Europe/Paris"); digest_next_at is the UTC time of the next one,
-- which a process claims by moving it on (compare-and-set), so one is sent per day at most.
ALTER TABLE user_settings ADD COLUMN digest_hour INTEGER;
ALTER TABLE user_settings ADD COLUMN time_zone TEXT;
ALTER TABLE user_settings ADD COLUMN digest_next_at TEXT;
-- Discord refused a direct message to the user (error 50007): no DM is tried again until the
-- user changes a DM setting; dm_refused_told becomes 1 once the user was told so.
ALTER TABLE user_settings ADD COLUMN dm_refused_at TEXT;
ALTER TABLE user_settings ADD COLUMN dm_refused_told INTEGER NOT NULL DEFAULT 0;
CREATE INDEX user_settings_digest ON user_settings (digest_next_at);

-- Quiet mode: the game's turns do not ping the user (except the last reminder before a
-- time-out).
CREATE TABLE muted_games (
    user_id     INTEGER NOT NULL REFERENCES users (user_id),
    game_id     INTEGER NOT NULL REFERENCES games (id),
    created_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
