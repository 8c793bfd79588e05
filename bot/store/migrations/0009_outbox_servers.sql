-- 0009: several bot processes on one database (bot.sharding). Portable SQL.

-- The server a row is posted in, so that the process running that server's shard delivers it
-- (a game's rows are its game's server's; a tournament's its own). A row without one belongs to
-- shard 0, as Discord's direct messages do.
ALTER TABLE outbox ADD COLUMN guild_id INTEGER;
UPDATE outbox SET guild_id = (SELECT g.guild_id FROM games g WHERE g.id = outbox.game_id)
WHERE game_id IS NOT NULL;
