"""Modals: the bot answers a command or a button with a form (callback type 9), the user fills it
in and submits it (a MODAL_SUBMIT interaction, type 5), which the bot answers like any other.

As Discord documents them (interactions/receiving-and-responding, "Interaction Callback Type"
MODAL: "not available for MODAL_SUBMIT and PING interactions"; components/reference, "Text
Input"): a modal has a ``custom_id`` (1-100 characters), a ``title`` (1-45) and 1 to 5
components, each a text input in an action row (or in a label, the newer layout); a text input
has a ``custom_id``, a style (1 short, 2 paragraph), a label of at most 45 characters and a
placeholder of at most 100; Discord's client does not submit a required input left empty or a
value outside ``min_length``/``max_length``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from emulator import limits
from emulator.api import APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT, Refused
from emulator.models import EmuUser

if TYPE_CHECKING:
    from emulator.interactions import Interaction

ACTION_ROW, TEXT_INPUT, LABEL = 1, 4, 18
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_PLACEHOLDER_MAX = 100
TEXT_INPUT_VALUE_MAX = 4000


def text_inputs(modal: dict[str, Any]) -> list[tuple[dict[str, Any], str | None, int]]:
    """Each text input of a modal with its label (the input's own, or its Label's) and the
    layout holding it (an action row or a label)."""
    found = []
    for component in modal.get("components") or []:
        if component.get("type") == ACTION_ROW:
            for inner in component.get("components") or []:
                found.append((inner, inner.get("label"), ACTION_ROW))
        elif component.get("type") == LABEL:
            found.append((component.get("component") or {}, component.get("label"), LABEL))
    return found


class Modals:
    """Modals opened and submitted; part of ``Emulator``."""

    def _check_modal(self, interaction: Interaction, data: dict[str, Any]) -> None:
        if interaction.type not in (APPLICATION_COMMAND, MESSAGE_COMPONENT):
            raise Refused(400, limits.INVALID_FORM_BODY,
                          "Interaction responses of type MODAL are not allowed here")
        errors = limits.FormErrors()
        errors.length_between(("data", "custom_id"), data.get("custom_id"), 1,
                              limits.CUSTOM_ID_MAX)
        errors.length_between(("data", "title"), data.get("title"), 1, MODAL_TITLE_MAX)
        components = data.get("components") or []
        if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
            errors.add(("data", "components"), "BASE_TYPE_BAD_LENGTH",
                       f"Must be between 1 and {MODAL_COMPONENTS_MAX} in length.")
        for index, (text, label, _) in enumerate(text_inputs(data)):
            path = ("data", "components", index)
            if text.get("type") != TEXT_INPUT:
                errors.add(path, "UNION_TYPE_CHOICES", "a modal holds text inputs")
                continue
            errors.length_between((*path, "custom_id"), text.get("custom_id"), 1,
                                  limits.CUSTOM_ID_MAX)
            errors.too_long((*path, "label"), label, TEXT_INPUT_LABEL_MAX)
            errors.too_long((*path, "placeholder"), text.get("placeholder"),
                            TEXT_INPUT_PLACEHOLDER_MAX)
            if text.get("style") not in (1, 2):
                errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
        if errors:
            raise Refused(400, limits.INVALID_FORM_BODY, "Invalid Form Body", errors.tree)

    async def submit_modal(
        self, user: str | EmuUser, opened: Interaction, values: dict[str, str], *,
        locale: str = "en-US",
    ) -> Interaction:
        """``user`` fills in the modal the bot opened in answer to ``opened`` (``values`` by
        each input's custom_id or label) and submits it."""
        member = self.user(user)
        modal = opened.modal
        if modal is None:
            raise LookupError(f"interaction {opened.id} opened no modal")
        if member.id != opened.user.id:
            raise LookupError("a modal is submitted by the user it was opened for")
        wanted = {k.casefold(): v for k, v in values.items()}
        rows: list[dict[str, Any]] = []
        used: set[str] = set()
        for text, label, layout in text_inputs(modal):
            keys = [str(text["custom_id"]).casefold(), str(label or "").casefold()]
            key = next((k for k in keys if k in wanted), None)
            value = "" if key is None else str(wanted[key])
            if key is not None:
                used.add(key)
            if text.get("required", True) and not value:
                raise LookupError(f"the modal's field {label or text['custom_id']!r} is required")
            low, high = int(text.get("min_length") or 0), int(
                text.get("max_length") or TEXT_INPUT_VALUE_MAX)
            if value and not low <= len(value) <= high:
                raise LookupError(f"the field {label!r} takes {low} to {high} characters")
            entry = {"type": TEXT_INPUT, "id": text.get("id", 0),
                     "custom_id": text["custom_id"], "value": value}
            # The submission mirrors the modal's layout, as Discord sends it.
            rows.append({"type": ACTION_ROW, "components": [entry]} if layout == ACTION_ROW
                        else {"type": LABEL, "component": entry})
        unknown = set(wanted) - used
        if unknown:
            raise LookupError(f"the modal has no field {', '.join(sorted(unknown))}")
        data = {"custom_id": modal["custom_id"], "components": rows}
        source = self.messages.get(int(opened.payload["message"]["id"])) \
            if "message" in opened.payload else None
        return await self._send_interaction(
            MODAL_SUBMIT, member, opened.channel_id, data, message=source, locale=locale,
            owners=dict(opened.owners),
        )
