-- 0015: games played where the bot is not a member (issue 28). Portable SQL.
-- (Renumber it after the other branches' migrations land.)

-- Where a game lives: NULL (or 'thread') a thread of a server that added the bot, the bot
-- posting there itself; 'conversation' a DM, group DM or server without the bot (the app
-- installed on a user's account), where every public message is an answer to an interaction.
-- A conversation game's thread_id is its conversation's channel, so commands used there find
-- it as they find a thread's game.
ALTER TABLE games ADD COLUMN place TEXT;
-- The place the game of a challenge will have: where the challenge was posted.
ALTER TABLE challenges ADD COLUMN place TEXT;
-- Whether a challenge's game counts for ratings, as its challenger asked (/play rated:);
-- NULL: the default of its place (rated in a server with the bot, casual elsewhere).
ALTER TABLE challenges ADD COLUMN rated INTEGER;
