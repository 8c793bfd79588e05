"""The local console (``make run`` without a token, started by ``bot.runtime.console``): you type
slash commands as one of several local users; the bot's replies are printed as text and every file
is written to a folder. It drives an ``Emulator`` only: any bot connected to it answers.

    alice #games> /play alak @bob
    alice #games> /as bob
    bob #games> /click accept
    bob Alak #1> /move ?          (suggestions for the move you could type)
    bob Alak #1> /move f

Console commands: /as <user>, /in <channel or thread>, /click <button label>, /threads, /users,
/lang <en|fr> (the current user's Discord language), /console, /quit; and for the places the
bot is not (``console_places``): /install, /dm, /group, /server, /form; and the web board
(``console_web``): /web, /activity. Everything else is sent to
the bot as a slash command (``/help`` is the bot's own), named in English or in the current
user's language (``/jouer``, ``/règles jeu:alak``), as Discord's client offers them; arguments
are ``@user``, ``name:value``, or plain values filling the command's options in order, the last
text option taking the rest of the line (``/move b1 e2``); a text value given by name goes on
over spaces until the next option (``section:A turn``).

Each run writes its files to a folder of its own under the images folder (``run-<time>``, see
``console_io.run_folder``) and removes the folders of earlier runs, so a path printed now never
shows an older run's picture.
Events are printed as they arrive (``watch``, a task beside the prompt), whoever they are for: the
AI's move, a review's result, a tournament's next round show without another line typed, and a
private answer is printed for whichever local user it is for ("only you", "only bob"). Typing a
command waits only for the bot's first answer (Discord gives it 3 seconds), never for the work
after it (a review, a drawing).
A new thread is entered when it concerns the current user (a message in it mentions them).
Whenever a message notifies someone, a line says so, as Discord would ping them.
"""

from __future__ import annotations

import contextlib
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from emulator import console_places, console_web
from emulator.api import PUBLIC_THREAD, STRING, SUB_COMMAND, SUB_COMMAND_GROUP, USER
from emulator.commands import shown_name
from emulator.models import Event, Message
from emulator.server import Emulator

HELP = """\
Console commands:
  /as <user>            act as another local user
  /in <name or number>  go to a channel or a thread (see /threads); a new game thread you
                        play in is entered automatically
  /click <label>        press the newest button with that label here
  /<command> ... ?      end a value with ? to see the bot's suggestions (e.g. /move ?)
  /lang <en|fr>         your Discord language (each user has their own): the bot answers
                        you in it, and commands go by its names too (/jouer, /aide)
  /threads  /users  /console (this list)  /quit
{places}
Anything else is a slash command for the bot: /help (the bot's), /play alak @bob, /move f,
/board, /games... Arguments are @user, name:value, or plain values filling the options in
order; the last text option takes the rest of the line (/move b1 e2), and so does a text
value given by name until the next option (/rules alak section:A turn)."""
SHORT_HELP = "Console: /as <user>, /in <thread>, /click <label>, /threads, /console, /quit."
#: Files shown as pictures; anything else is a "file".
IMAGE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".webp")
#: What a typed ``name:`` looks like (a value holding a colon, as ``12:30``, is not one).
OPTION_NAME = re.compile(r"[^\W\d]\w*")
#: How long a typed command waits for the bot's first answer: Discord's own limit (an
#: interaction not answered within 3 seconds has failed).
FIRST_ANSWER_SECONDS = 3.0


def as_typed(label: str) -> str:
    """A button's label as it may be typed: any case, three dots for the ellipsis ("move..."
    presses **Move…**)."""
    return label.replace("…", "...").casefold()


def suggestions_text(name: str, choices: list[dict[str, Any]]) -> list[str]:
    """The lines showing an option's suggestions: on one line when each is one word
    (``a b c``), else one per line, so that names with spaces stay apart."""
    names = [str(c["name"]) for c in choices]
    if not names:
        return [f"  suggestions for {name}: (none)"]
    if not any(" " in n for n in names):
        return [f"  suggestions for {name}: {' '.join(names)}"]
    return [f"  suggestions for {name}:", *(f"    {n}" for n in names)]


class Console:
    """Turns typed lines into emulator actions and emulator events into printed lines.

    Longer than 300 lines on purpose, for now: the web and Activity commands joined the
    others here; splitting the commands by place (as ``console_places`` began) is the next
    step."""

    def __init__(
        self, emu: Emulator, images_dir: Path, output: Callable[[str], None] = print
    ) -> None:
        self.emu = emu
        self.images_dir = images_dir
        self.output = output
        self.user = next(iter(emu.users.values()))
        self.channel_id = emu.channel_id
        #: Each local user's Discord client language (``/lang``), by user id.
        self.locales: dict[int, str] = {}
        self._printed = 0
        self._shown: dict[int, tuple[str, int]] = {}
        self._follow_threads = True
        #: Threads created this run that the current user has not been taken into.
        self._new_threads: list[int] = []

    @property
    def locale(self) -> str:
        """The current user's Discord client language."""
        return self.locales.get(self.user.id, "en-US")

    # ----- what the user sees -------------------------------------------------------------------

    def prompt(self) -> str:
        return f"{self.user.name} {self.channel_name(self.channel_id)}> "

    def channel_name(self, channel_id: int) -> str:
        private = console_places.place_name(self, channel_id)
        if private is not None:
            return private
        channel = self.emu.channels.get(channel_id, {})
        name = channel.get("name", str(channel_id))
        return name if channel.get("type") == PUBLIC_THREAD else f"#{name}"

    def _names(self, text: str) -> str:
        """Mentions as readable names: <@id> -> @alice, <#id> -> #channel."""
        for user in (self.emu.bot_user, *self.emu.users.values()):
            text = text.replace(f"<@{user.id}>", f"@{user.name}")
        for channel_id in self.emu.channels:
            text = text.replace(f"<#{channel_id}>", f"[{self.channel_name(channel_id)}]")
        return text

    def show_new_events(self) -> bool:
        """Print everything that happened since the last call; then enter the newest new
        thread that concerns the current user. Whether anything was printed."""
        events = self.emu.events[self._printed:]
        self._printed = len(self.emu.events)
        printed = any([self._show(event) for event in events])
        if self._follow_threads:
            self._follow(events)
        return printed

    async def watch(self, printed: Callable[[], None] | None = None) -> None:
        """Print events as they arrive, whatever the user is typing (run as a task beside the
        prompt until cancelled); ``printed()`` after each batch that printed something."""
        while True:
            await self.emu.wait_for(lambda event: True, since=self._printed, timeout=None)
            if self.show_new_events() and printed is not None:
                printed()

    def _follow(self, events: list[Event]) -> None:
        """Enter the newest thread created this run in which one of ``events`` mentions or
        notifies the current user."""
        mention = self.user.mention
        for thread_id in reversed(self._new_threads):
            if any(event.kind == "message" and event.data.channel_id == thread_id
                   and (mention in event.data.content or self.user.id in event.notified)
                   for event in events):
                self.channel_id = thread_id
                self._new_threads.remove(thread_id)
                return

    def _show(self, event: Event) -> bool:
        """Print one event; whether it was worth a line."""
        if event.kind == "thread":
            self.output(f"  (new thread: {event.data['name']})")
            self._new_threads.append(int(event.data["id"]))
            return True
        if event.kind not in ("message", "edit"):
            return False
        message: Message = event.data
        if message.flags & (1 << 7):  # "thinking…" placeholders are not worth a line
            return False
        seen = (message.text(), len(message.files))
        previous = self._shown.get(message.id)
        self._shown[message.id] = seen
        if previous == seen:
            return False  # an edit that only took buttons away
        where = self.channel_name(message.channel_id)
        tag = " (edited)" if previous is not None else ""
        private = f" ({self._only_for(event)})" if message.ephemeral else ""
        lines = self._names(message.text()).splitlines() or [""]
        self.output(f"[{where}]{tag}{private} {lines[0]}")
        for line in lines[1:]:
            self.output(f"    {line}")
        for attachment in message.files:
            # The event's number is unique in this run, and the run has its own folder.
            path = self.images_dir / f"{event.seq}-{attachment.filename}"
            path.write_bytes(attachment.data)
            kind = "image" if attachment.filename.lower().endswith(IMAGE_SUFFIXES) else "file"
            self.output(f"    {kind}: {path}")
        buttons = [b for b in message.buttons() if not b.get("disabled")]
        if buttons:
            self.output("    buttons: " + " ".join(f"[{b.get('label')}]" for b in buttons))
        if event.notified:
            names = sorted(self._names(f"<@{uid}>") for uid in event.notified)
            self.output(f"    🔔 pinged: {', '.join(names)}")
        return True

    def _only_for(self, event: Event) -> str:
        """Who sees a private answer: "only you" (the current user) or "only bob"."""
        interaction = self.emu.interactions.get(event.interaction_id or 0)
        if interaction is None or interaction.user == self.user:
            return "only you"
        return f"only {interaction.user.name}"

    # ----- what the user types ------------------------------------------------------------------

    async def handle(self, line: str) -> bool:
        """Run one typed line; False means quit."""
        line = line.strip()
        if not line:
            return True
        if not line.startswith("/"):
            self.output("Commands start with /. Type /help.")
            return True
        try:
            words = shlex.split(line[1:])
        except ValueError as exc:
            self.output(f"Cannot read that line: {exc}")
            return True
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        local = {
            "console": self._help, "as": self._as, "in": self._in, "click": self._click,
            "threads": self._threads, "users": self._users, "lang": self._lang,
            "install": console_places.install, "uninstall": console_places.uninstall,
            "dm": console_places.dm, "group": console_places.group,
            "server": console_places.server, "form": console_places.form,
            "web": console_web.web, "activity": console_web.activity,
        }
        if command in ("quit", "exit"):
            return False
        try:
            if command in local:
                handler = local[command]
                await (handler(self, args) if handler.__module__ != __name__
                       else handler(args))
            elif await self._slash(words) == "help":
                self.show_new_events()
                self.output(SHORT_HELP)
        except LookupError as exc:
            self.output(str(exc).strip("'\""))
        return True

    async def _help(self, args: list[str]) -> None:
        self.output(HELP.format(places=f"{console_places.HELP}\n{console_web.HELP}").rstrip())
        names = sorted({shown_name(c, self.locale)
                        for scope in self.emu.commands.values() for c in scope})
        self.output("Bot commands: " + " ".join(f"/{n}" for n in names))

    async def _as(self, args: list[str]) -> None:
        if not args:
            raise LookupError("Usage: /as <user>")
        self.user = self.emu.user(args[0])
        self.output(f"You are now {self.user.name}.")

    async def _in(self, args: list[str]) -> None:
        if not args:
            raise LookupError("Usage: /in <channel or thread name or number>")
        wanted = " ".join(args).lstrip("#").lower()
        threads = self.emu.threads()
        if wanted.isdigit() and 1 <= int(wanted) <= len(threads):
            self.channel_id = int(threads[int(wanted) - 1]["id"])
        else:
            matches = [
                int(c["id"]) for c in self.emu.channels.values()
                if wanted in str(c.get("name", "")).lower()
            ]
            if not matches:
                raise LookupError(f"No channel or thread named {wanted!r}. Try /threads.")
            self.channel_id = matches[-1]
        self.output(f"Now in {self.channel_name(self.channel_id)}.")

    async def _threads(self, args: list[str]) -> None:
        threads = self.emu.threads()
        if not threads:
            self.output("No threads yet.")
        for number, thread in enumerate(threads, 1):
            self.output(f"  {number}. {thread['name']}")

    async def _users(self, args: list[str]) -> None:
        self.output("Local users: " + ", ".join(self.emu.users))

    async def _lang(self, args: list[str]) -> None:
        locale = {"fr": "fr", "en": "en-US"}.get((args or ["en"])[0].lower(), "en-US")
        self.locales[self.user.id] = locale
        self.output(f"Discord client language of {self.user.name}: {locale}")

    async def _click(self, args: list[str]) -> None:
        if not args:
            raise LookupError("Usage: /click <button label>")
        label = as_typed(" ".join(args))
        for message in reversed(self.emu.channel_messages(self.channel_id)):
            for button in message.buttons():
                if as_typed(button.get("label") or "") == label and not button.get("disabled"):
                    interaction = await self.emu.click(
                        self.user, message, button["custom_id"], locale=self.locale
                    )
                    await self._settle(interaction)
                    if interaction.modal is not None:
                        console_places.show_modal(self, interaction.modal)
                    return
        raise LookupError(f"No button [{' '.join(args)}] in {self.channel_name(self.channel_id)}.")

    async def _slash(self, words: list[str]) -> str:
        """Send the typed command (named in the user's language or not); its own name."""
        # The longest run of leading words that names a command or sub-command.
        path_length = 1
        for length in range(len(words), 0, -1):
            try:
                self.emu.find_command(" ".join(words[:length]), self.locale)
            except LookupError:
                continue
            path_length = length
            break
        path = " ".join(words[:path_length])
        command, _, leaf = self.emu.find_command(path, self.locale)
        values, suggest = self._parse_options(leaf, words[path_length:], path)
        if suggest is not None:
            name, typed = suggest
            values[name] = typed
            choices = await self.emu.autocomplete(
                self.user, path, values, name, channel=self.channel_id, locale=self.locale
            )
            for line in suggestions_text(name, choices):
                self.output(line)
            return command["name"]
        interaction = await self.emu.slash(
            self.user, path, values, channel=self.channel_id, locale=self.locale
        )
        await self._settle(interaction)
        return command["name"]

    def _parse_options(
        self, leaf: dict[str, Any], args: list[str], path: str = ""
    ) -> tuple[dict[str, Any], tuple[str, str] | None]:
        """Option values by the options' own names (typed in the user's language or not), and
        the option whose suggestions are asked for (a value ending with ``?``)."""
        options = [o for o in leaf.get("options", [])
                   if o["type"] not in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        by_name = {o["name"]: o for o in options}
        values: dict[str, Any] = {}
        suggest = None
        last_text: str | None = None  # the text option that takes the rest of the line
        named_text: str | None = None  # a text option given by name, whose value goes on
        for arg in args:
            before, colon, _ = arg.partition(":")
            named = self.emu.option_name(leaf, before, self.locale)
            if colon and named is None and OPTION_NAME.fullmatch(before):
                shown = ", ".join(shown_name(o, self.locale) for o in options) or "none"
                raise LookupError(f"/{path or leaf['name']} has no option {before} (its "
                                  f"options: {shown})")
            if ":" in arg and named in by_name:
                name, value = named, arg.split(":", 1)[1]
                named_text = name if by_name[name]["type"] == STRING else None
                last_text = None
            elif arg.startswith("@"):
                free = [o for o in options if o["type"] == USER and o["name"] not in values]
                if not free:
                    raise LookupError(f"/{leaf['name']} takes no (more) user")
                name, value = free[0]["name"], arg
                named_text = last_text = None
            elif named_text is not None and self._goes_on(by_name[named_text],
                                                          f"{values.get(named_text, '')} {arg}"):
                # As in Discord's client, a value typed after ``name:`` goes on over spaces
                # (``section:A turn``) until the next option.
                name, value = named_text, f"{values.pop(named_text, '')} {arg}"
            else:
                named_text = None
                free = [o for o in options if o["type"] != USER and o["name"] not in values]
                if not free and last_text is not None:
                    name, value = last_text, f"{values.pop(last_text)} {arg}"
                elif not free:
                    raise LookupError(f"Too many values for /{leaf['name']}")
                else:
                    name, value = free[0]["name"], arg
                    last_text = name if free[0]["type"] == STRING else None
            if value.endswith("?") and by_name[name].get("autocomplete"):
                suggest = (name, value[:-1])
                continue
            values[name] = value
        return values, suggest

    def _goes_on(self, option: dict[str, Any], value: str) -> bool:
        """Whether ``value`` may be the text option's value: any text, or for an option with
        choices, the start of a choice's name (so ``game:alak big`` still fills the next
        option)."""
        choices = option.get("choices")
        if not choices:
            return True
        typed = value.strip().casefold()
        names = [str(c["name"]) for c in choices] + [
            str(n) for c in choices for n in (c.get("name_localizations") or {}).values()]
        return any(name.casefold().startswith(typed) for name in names)

    async def _settle(self, interaction: Any) -> None:
        """Wait for the bot's first answer to this interaction (a message, a form, or "thinking"
        while it works), at most as long as Discord waits; never for the work after it, which
        ``watch`` prints when it comes."""
        with contextlib.suppress(TimeoutError):
            await interaction.acknowledged(FIRST_ANSWER_SECONDS)
