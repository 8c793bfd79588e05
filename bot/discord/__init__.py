"""discord.py's side of the bot: the client, its cogs and buttons, the outbox delivery, replies
and errors, how the bot stops."""
