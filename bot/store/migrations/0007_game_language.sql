-- 0007: one language per game thread. Portable SQL.

-- The language of a game's public posts ("en", "fr"), fixed when the game starts: the server's
-- language setting if it has one, else the challenger's. NULL for older games (the bot's
-- default language).
ALTER TABLE games ADD COLUMN locale TEXT;
-- The challenger's language, from the client they challenged with.
ALTER TABLE challenges ADD COLUMN locale TEXT;
