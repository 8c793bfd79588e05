"""The Move… form's custom_id and what a submission typed, read back without the form object
(``answer_move_form`` answers every submission from these alone)."""

from __future__ import annotations

from bot.discord.views.actions import FORM_ID, MOVE_FIELD, form_custom_id, typed_text


def test_each_persons_form_has_its_own_id_and_older_ids_still_read():
    mine, theirs = form_custom_id(42, 7), form_custom_id(42, 8)
    assert mine != theirs and len(mine) <= 100
    assert FORM_ID.fullmatch(mine).group("game", "user") == ("42", "7")
    assert FORM_ID.fullmatch("bg:form:42").group("game", "user") == ("42", None)
    assert FORM_ID.fullmatch("bg:form:42:x") is None


def test_the_typed_move_is_read_from_either_layout():
    entry = {"type": 4, "custom_id": MOVE_FIELD, "value": "play 2 -3,2 0"}
    assert typed_text([{"type": 1, "components": [entry]}]) == "play 2 -3,2 0"
    assert typed_text([{"type": 18, "component": entry}]) == "play 2 -3,2 0"
    assert typed_text([{"type": 1, "components": [{**entry, "value": ""}]}]) == ""
    assert typed_text([]) == ""
