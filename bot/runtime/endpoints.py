"""Point discord.py at a Discord-compatible server (the local emulator, a test double, a proxy).

discord.py builds every REST URL from ``Route.BASE`` and connects the gateway to
``DiscordWebSocket.DEFAULT_GATEWAY``; both are class attributes, so this is process-wide. We never
call ``discord.http._set_api_version``, which would reset ``Route.BASE`` to discord.com.
"""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"


def use_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST calls to ``api_base`` and open the gateway at ``gateway_url`` (None: Discord)."""
    discord.http.Route.BASE = (api_base or DISCORD_API_BASE).rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url or DISCORD_GATEWAY_URL)
