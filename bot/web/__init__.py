"""The web board: a game played by clicking on the bot's own board image, in a browser or a
Discord Activity (docs/web.md). Sign-in with Discord's OAuth2 (``signin``, ``oauth``,
``sessions``), the pages and their API (``server``, ``pages``, ``answers``), what a page
shows its viewer (``board``) and the live updates (``live``); the browser's side is a few ES
modules in ``static/``.

It sits above the services and the workers and below ``bot.discord``: it calls the same
services as the commands, and the bot gives it what only Discord's side has (names, posting a
change: ``WebHost``). It starts with the bot when ``web_port`` is set (``bot.web.server.WebBoard``).

Nothing is imported here: the board workers load ``bot.web.board`` to draw the pages'
pictures, and need none of the server for it.
"""
