"""Settings: a server's (the language of its public posts, the default time control of
``/play``) and a user's (the language they chose for the bot). ``SettingsService`` owns them
and calls no other service; the challenges, seeks and AI seats read the server's defaults
here. Changing a server's settings through ``/admin settings`` is ``AdminService``'s
(``update_server_settings``), which checks what an admin may choose."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import language_of
from bot.services.base import retrying
from bot.services.context import ServiceContext
from bot.services.gamestate import normal_json
from bot.store import Reads


class SettingsService:
    """Servers' and users' settings (see the module docstring)."""

    def __init__(self, context: ServiceContext) -> None:
        self._store = context.store
        self._clock = context.now

    async def guild_settings(self, guild_id: int) -> tuple[str | None, dict[str, Any]]:
        """(locale, settings) of a guild; (None, {}) if it never saved any."""
        found = await self._store.guild_settings(guild_id)
        return found if found is not None else (None, {})

    @retrying
    async def set_guild_settings(
        self, guild_id: int, *, locale: str | None = None, settings: dict | None = None
    ) -> None:
        """Replace a guild's locale and settings (a JSON-safe dict)."""
        async with self._store.transaction() as tx:
            await tx.set_guild_settings(guild_id, locale, normal_json(settings or {}),
                                        self._clock())

    async def public_language(self, guild_id: int | None, language: str | None,
                              reads: Reads | None = None) -> str | None:
        """The language of a server's public posts: the server's setting if it has one, else
        ``language`` (the challenger's). ``reads``: a transaction to read it in."""
        if guild_id is not None:
            found = await (reads or self._store).guild_settings(guild_id)
            if found is not None and found[0]:
                return language_of(found[0])
        return language

    async def server_language(self, guild_id: int | None) -> str | None:
        """The language a server chose for its public posts (``/admin settings``), if any."""
        return await self.public_language(guild_id, None)

    async def server_time_control(self, guild_id: int | None, time_control: str | None
                                  ) -> str | None:
        """The time control a ``/play`` gets: the one given, else the server's default
        (``/admin settings``), else None (untimed)."""
        if time_control is None and guild_id is not None:
            found = await self._store.guild_settings(guild_id)
            time_control = found[1].get("time_control") if found else None
        return time_control

    async def user_locale(self, user_id: int) -> str | None:
        """The language a user chose for the bot (None: follow their Discord language)."""
        return await self._store.user_locale(user_id)

    @retrying
    async def set_user_locale(self, user_id: int, locale: str | None) -> None:
        """Save (or, with None, forget) the language a user chose for the bot."""
        async with self._store.single_write() as tx:  # one statement
            await tx.set_user_locale(user_id, locale, self._clock())
