"""The console's commands for the places the bot is not (``emulator.console``): installing the
app on your account, opening a DM, a group DM or a server without the bot, and filling in the
form (modal) a button opened.

    alice #games> /install
    alice #games> /dm bob              (a DM between alice and bob: the bot is not in it)
    alice DM alice+bob> /play alak @bob
    alice DM alice+bob> /as bob
    bob DM alice+bob> /click accept
    bob DM alice+bob> /click move…
    bob DM alice+bob> /form f
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emulator.api import DM_CHANNEL, GROUP_DM
from emulator.modals import text_inputs

if TYPE_CHECKING:
    from emulator.console import Console

HELP = """\
  /install  /uninstall  add the app to your account (or take it off): its commands then work
                        in DMs, group DMs and servers without the bot
  /dm <user>            a DM between you and <user> (the bot is not in it)
  /group <user> ...     a group DM of you and up to nine others
  /server <name>        a server that never added the bot (you are all members)
  /form <value> ...     fill in the form a button opened (one value per field, in order)"""


def place_name(console: Console, channel_id: int) -> str | None:
    """How the prompt names a DM or group DM (None: a server's channel)."""
    emu = console.emu
    channel = emu.channels.get(channel_id, {})
    if channel.get("type") not in (DM_CHANNEL, GROUP_DM):
        return None
    names = sorted(u.name for u in emu.users.values()
                   if u.id in (emu.members_of(channel_id) or ()))
    return ("DM " if channel["type"] == DM_CHANNEL else "group ") + "+".join(names)


async def install(console: Console, args: list[str]) -> None:
    console.emu.install_app(console.user)
    console.output(f"{console.user.name} added the app to their account.")


async def uninstall(console: Console, args: list[str]) -> None:
    console.emu.uninstall_app(console.user)
    console.output(f"{console.user.name} took the app off their account.")


async def dm(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise LookupError("Usage: /dm <user>")
    try:
        console.channel_id = console.emu.open_dm(console.user, args[0].lstrip("@"))
    except ValueError as exc:
        raise LookupError(str(exc)) from None
    _entered(console)


async def group(console: Console, args: list[str]) -> None:
    if not args:
        raise LookupError("Usage: /group <user> [<user> ...]")
    try:
        console.channel_id = console.emu.open_group_dm(
            console.user, *(name.lstrip("@") for name in args))
    except ValueError as exc:
        raise LookupError(str(exc)) from None
    _entered(console)


async def server(console: Console, args: list[str]) -> None:
    name = " ".join(args) or "No bot here"
    _, console.channel_id = console.emu.add_guild(name, "general", bot=False)
    console.output(f"A server without the bot: {name}.")
    _entered(console)


async def form(console: Console, args: list[str]) -> None:
    """Submit the newest form the bot opened for the current user."""
    opened = next((i for i in reversed(list(console.emu.interactions.values()))
                   if i.user == console.user and i.modal is not None), None)
    if opened is None:
        raise LookupError("No form is open for you: /click a button that opens one.")
    fields = [text["custom_id"] for text, _, _ in text_inputs(opened.modal)]
    values = dict(zip(fields, [" ".join(args)] if len(fields) == 1 else args, strict=False))
    submitted = await console.emu.submit_modal(console.user, opened, values,
                                               locale=console.locale)
    opened.modal = None  # a form is submitted once
    await console._settle(submitted)


def show_modal(console: Console, modal: dict) -> None:
    fields = ", ".join(
        f"{label or text['custom_id']}" + (f" ({text['placeholder']})"
                                           if text.get("placeholder") else "")
        for text, label, _ in text_inputs(modal))
    console.output(f"  (form: {modal.get('title')} — {fields}; answer with /form <value>)")


def _entered(console: Console) -> None:
    console.output(f"Now in {console.channel_name(console.channel_id)}.")
