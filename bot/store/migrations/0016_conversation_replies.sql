-- 0016: the way into a conversation game's channel (issue 28). Portable SQL.

-- Where the bot is not (a DM, a group DM, a server without it), the bot can post only on an
-- interaction's token, for 15 minutes: the game's latest interaction, kept here so that a
-- restart during an AI's turn still posts its reply as a follow-up of that token. ``created_at``
-- tells how long the token lives; ``follow_ups`` how many of its five follow-ups are spent;
-- ``missed`` is 1 once a row of the game could not be posted (no live token): the next press
-- on a board the game has moved past shows the game as it stands.
CREATE TABLE conversation_replies (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    token       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    follow_ups  INTEGER NOT NULL,
    missed      INTEGER NOT NULL DEFAULT 0
);
