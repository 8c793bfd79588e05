"""The console's commands for the web board (``emulator.console``): a link that opens the board
signed in as a local user, and the emulated Discord client's page framing it as an Activity.

    alice #games> /web bob
    Open the board as bob: http://127.0.0.1:…/emulator/sign-in?user=bob&next=…
    alice #games> /activity
    Open the Activity in #games as alice: http://127.0.0.1:…/.emulator/client/…

The board's address is the emulator's ``activity_url`` (its URL mapping's target).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from emulator.console import Console

HELP = """\
  /web [user]           a link to the web board, signed in as you (or <user>)
  /activity [user]      the Discord client's page with the board as an Activity here"""
NOT_CONFIGURED = ("No web board is configured: the emulator has no activity_url (the board's "
                  "base URL), so there is nothing to open.")


def _who(console: Console, args: list[str]) -> str:
    return console.emu.user(args[0].lstrip("@")).name if args else console.user.name


async def web(console: Console, args: list[str]) -> None:
    emu = console.emu
    if emu.activity_url is None:
        raise LookupError(NOT_CONFIGURED)
    user = _who(console, args)
    console.output(f"Open the board as {user}: {emu.sign_in_url(user, emu.activity_url)}")


async def activity(console: Console, args: list[str]) -> None:
    emu = console.emu
    if emu.activity_url is None:
        raise LookupError(NOT_CONFIGURED)
    if not emu.activities_enabled:
        raise LookupError("Activities are off for this application (the emulator's "
                          "activities setting).")
    user = _who(console, args)
    client = emu.open_activity(user, channel=console.channel_id)
    where = console.channel_name(console.channel_id)
    console.output(f"Open the Activity in {where} as {user}: {emu.activity_page_url(client)}")
