"""Discord's documented limits on what a bot sends, checked as Discord checks them.

A request that breaks one is refused with 400 and code 50035 ("Invalid Form Body") and an
``errors`` tree that names each field, in Discord's shape::

    {"message": "Invalid Form Body", "code": 50035,
     "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                         "message": "Must be 2000 or fewer in length."}]}}}

Sources: discord-api-docs, resources/message (content, embed limits, nonce),
components/reference (action rows, buttons, custom_id), interactions (autocomplete choices),
resources/channel (thread names). An attachment over the size limit is refused the way Discord
refuses an oversized upload: 413 with code 40005.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
#: The sum of every title, description, field, footer and author name of a message's embeds.
EMBEDS_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100
THREAD_NAME_MAX = 100
ATTACHMENTS_MAX = 10
#: Discord's upload limit for a server without boosts (``attachment_size_limit``).
ATTACHMENT_BYTES_MAX = 10 * 1024 * 1024
NONCE_MAX = 25

INVALID_FORM_BODY = 50035
EMPTY_MESSAGE = 50006
TOO_LARGE = 40005

ACTION_ROW = 1
BUTTON = 2
LINK_STYLE = 5
PREMIUM_STYLE = 6


class FormErrors:
    """The ``errors`` tree of a 50035 answer, filled field by field."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def too_long(self, path: Sequence[str | int], value: str | None, limit: int) -> None:
        if value is not None and len(str(value)) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: Sequence[str | int], value: Any, low: int, high: int) -> None:
        if not isinstance(value, str) or not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def __bool__(self) -> bool:
        return bool(self.tree)

    def body(self) -> dict[str, Any]:
        return {"message": "Invalid Form Body", "code": INVALID_FORM_BODY, "errors": self.tree}


def check_message(
    payload: dict[str, Any], files: Sequence[Any], *, creating: bool, errors: FormErrors
) -> None:
    """The limits on a message body: a new one (``creating``) or the fields an edit sets."""
    if "content" in payload:
        errors.too_long(["content"], payload.get("content"), CONTENT_MAX)
    if payload.get("embeds"):
        _check_embeds(payload["embeds"], errors)
    if payload.get("components"):
        _check_components(payload["components"], errors)
    nonce = payload.get("nonce")
    if nonce is not None:
        errors.too_long(["nonce"], str(nonce), NONCE_MAX)
    if len(files) > ATTACHMENTS_MAX:
        errors.add(["attachments"], "BASE_TYPE_MAX_LENGTH",
                   f"Must be {ATTACHMENTS_MAX} or fewer in length.")
    allowed = payload.get("allowed_mentions")
    if isinstance(allowed, dict) and "users" in (allowed.get("parse") or []) and allowed.get(
        "users"
    ):
        errors.add(["allowed_mentions"], "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                   'parse:["users"] and users: [ids...] are mutually exclusive.')


def is_empty(payload: dict[str, Any], files: Sequence[Any]) -> bool:
    """A new message needs content, an embed, a component or a file (Discord's 50006)."""
    return not (payload.get("content") or payload.get("embeds") or payload.get("components")
                or payload.get("sticker_ids") or payload.get("poll") or files)


def oversized(files: Sequence[Any]) -> bool:
    return any(len(f.data) > ATTACHMENT_BYTES_MAX for f in files)


def _check_embeds(embeds: list[dict[str, Any]], errors: FormErrors) -> None:
    if len(embeds) > EMBEDS_MAX:
        errors.add(["embeds"], "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length.")
    total = 0
    for index, embed in enumerate(embeds):
        path = ["embeds", index]
        for key, limit in (("title", EMBED_TITLE_MAX), ("description", EMBED_DESCRIPTION_MAX)):
            errors.too_long([*path, key], embed.get(key), limit)
            total += len(embed.get(key) or "")
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errors.add([*path, "fields"], "BASE_TYPE_MAX_LENGTH",
                       f"Must be {EMBED_FIELDS_MAX} or fewer in length.")
        for number, field in enumerate(fields):
            errors.too_long([*path, "fields", number, "name"], field.get("name"),
                            EMBED_FIELD_NAME_MAX)
            errors.too_long([*path, "fields", number, "value"], field.get("value"),
                            EMBED_FIELD_VALUE_MAX)
            total += len(field.get("name") or "") + len(field.get("value") or "")
        footer = (embed.get("footer") or {}).get("text")
        errors.too_long([*path, "footer", "text"], footer, EMBED_FOOTER_MAX)
        author = (embed.get("author") or {}).get("name")
        errors.too_long([*path, "author", "name"], author, EMBED_AUTHOR_MAX)
        total += len(footer or "") + len(author or "")
    if total > EMBEDS_TOTAL_MAX:
        errors.add(["embeds"], "MESSAGE_EMBEDS_TOO_LONG",
                   f"Embed size exceeds maximum size of {EMBEDS_TOTAL_MAX}")


def _check_components(rows: list[dict[str, Any]], errors: FormErrors) -> None:
    if len(rows) > ACTION_ROWS_MAX:
        errors.add(["components"], "BASE_TYPE_MAX_LENGTH",
                   f"Must be {ACTION_ROWS_MAX} or fewer in length.")
    seen: set[str] = set()
    for index, row in enumerate(rows):
        path = ["components", index]
        if row.get("type") != ACTION_ROW:
            errors.add([*path, "type"], "UNION_TYPE_CHOICES",
                       "Value of field \"type\" must be one of (1,).")
            continue
        children = row.get("components") or []
        if not 1 <= len(children) <= BUTTONS_PER_ROW_MAX:
            errors.add([*path, "components"], "BASE_TYPE_BAD_LENGTH",
                       f"Must be between 1 and {BUTTONS_PER_ROW_MAX} in length.")
        for number, child in enumerate(children):
            child_path = [*path, "components", number]
            if child.get("type") != BUTTON:
                continue  # select menus: the bot sends none
            errors.too_long([*child_path, "label"], child.get("label"), BUTTON_LABEL_MAX)
            if child.get("style") in (LINK_STYLE, PREMIUM_STYLE):
                continue
            custom_id = child.get("custom_id")
            errors.length_between([*child_path, "custom_id"], custom_id, 1, CUSTOM_ID_MAX)
            if custom_id in seen:
                errors.add([*child_path, "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED",
                           "Component custom id cannot be duplicated")
            seen.add(custom_id)


def check_choices(choices: list[dict[str, Any]], errors: FormErrors) -> None:
    """An autocomplete answer: at most 25 choices, each name 1–100 and string value ≤ 100."""
    if len(choices) > CHOICES_MAX:
        errors.add(["data", "choices"], "BASE_TYPE_MAX_LENGTH",
                   f"Must be {CHOICES_MAX} or fewer in length.")
    for index, choice in enumerate(choices):
        path = ["data", "choices", index]
        errors.length_between([*path, "name"], choice.get("name"), 1, CHOICE_NAME_MAX)
        value = choice.get("value")
        if isinstance(value, str):
            errors.too_long([*path, "value"], value, CHOICE_VALUE_MAX)


def check_thread_name(name: Any, errors: FormErrors) -> None:
    errors.length_between(["name"], name, 1, THREAD_NAME_MAX)
