"""The app installed on a user's account, played where the bot is not: DMs and group DMs between
users, servers without the bot. The emulator sends what Discord sends there (``context``,
``authorizing_integration_owners``, ``app_permissions``, ``user`` or ``member``) and refuses
what Discord refuses (50001 on channel routes, 50027 after 15 minutes, 40094 after five
follow-ups, 50007 to a user who closed their DMs); the app's commands are offered only where an
install authorizes them; contexts count on top-level commands only (Discord ignores them on
sub-commands)."""

from __future__ import annotations

import pytest

from emulator import EPHEMERAL, HiddenCommand
from emulator.installs import BOT_DM_APP_PERMISSIONS, PRIVATE_APP_PERMISSIONS
from emulator.permissions import PIN_MESSAGES, USE_EXTERNAL_APPS


async def answer(interaction, rest, emu, body) -> tuple[int, dict]:
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    return await rest(emu, "POST", path, body=body, token=False)


# ----- where commands are offered, and what the interaction says ------------------------------


async def test_a_user_install_offers_the_app_in_a_dm_between_users(emu_and_bot):
    emu, _ = emu_and_bot
    dm = emu.open_dm("alice", "bob")
    assert emu.open_dm("bob", "alice") == dm, "two users share one DM"
    with pytest.raises(HiddenCommand):
        await emu.slash("alice", "where", channel=dm)  # not installed yet
    emu.install_app("alice")
    with pytest.raises(HiddenCommand):
        await emu.slash("alice", "hello", {"friend": "bob"}, channel=dm)  # guild install only
    interaction = await emu.slash("alice", "where", channel=dm)
    payload = interaction.payload
    assert payload["context"] == 2
    assert payload["authorizing_integration_owners"] == {"1": str(emu.user("alice").id)}
    assert int(payload["app_permissions"]) == PRIVATE_APP_PERMISSIONS
    assert "guild_id" not in payload and "member" not in payload
    assert payload["user"]["id"] == str(emu.user("alice").id)
    assert [r["id"] for r in payload["channel"]["recipients"]] == [str(emu.user("bob").id)]
    reply = await interaction.reply()
    assert reply.content.startswith("where private by alice guild=None"), reply.content
    assert reply.data["interaction_metadata"]["authorizing_integration_owners"] == {
        "1": str(emu.user("alice").id)}
    assert emu.refusals == []


async def test_group_dms_hold_two_to_ten_users_and_are_private_channels(emu_and_bot):
    emu, _ = emu_and_bot
    for name in ("erin", "frank", "grace", "heidi", "ivan", "judy", "ken"):
        emu.add_user(name)
    with pytest.raises(ValueError):
        emu.open_group_dm("alice")
    with pytest.raises(ValueError):
        emu.open_group_dm(*emu.users)  # eleven people
    group = emu.open_group_dm("alice", "bob", "carol", "dave", "erin")
    emu.install_app("bob")
    interaction = await emu.slash("bob", "where", channel=group)
    assert interaction.payload["context"] == 2
    assert interaction.payload["channel"]["type"] == 3
    assert (await interaction.reply()).content.startswith("where group by bob")
    with pytest.raises(LookupError):  # frank is not in the conversation
        emu.install_app("frank")
        await emu.slash("frank", "where", channel=group)


async def test_a_server_without_the_bot(emu_and_bot):
    emu, bot = emu_and_bot
    guild, channel = emu.add_guild("No bot here", bot=False)
    assert bot.get_guild(guild) is None, "the bot never hears of a server it is not in"
    with pytest.raises(HiddenCommand):
        await emu.slash("alice", "where", channel=channel)
    emu.install_app("alice")
    interaction = await emu.slash("alice", "where", channel=channel)
    payload = interaction.payload
    assert payload["context"] == 0 and payload["guild_id"] == str(guild)
    assert payload["authorizing_integration_owners"] == {"1": str(emu.user("alice").id)}
    assert int(payload["app_permissions"]) == emu.permissions_of("alice")
    assert "member" in payload
    reply = await interaction.reply()
    assert f"guild={guild}" in reply.content and not reply.ephemeral


async def test_owners_in_a_server_with_the_bot_and_in_the_bots_dm(emu_and_bot, rest):
    emu, _ = emu_and_bot
    alice = emu.user("alice")
    plain = await emu.slash("alice", "where")
    assert plain.payload["authorizing_integration_owners"] == {"0": str(emu.guild_id)}
    emu.install_app("alice")
    both = await emu.slash("alice", "where")
    assert both.payload["authorizing_integration_owners"] == {
        "0": str(emu.guild_id), "1": str(alice.id)}
    assert int(both.payload["app_permissions"]) == emu.bot_permissions_in(emu.channel_id)
    _, dm = await rest(emu, "POST", "/users/@me/channels", body={"recipient_id": str(alice.id)})
    own = await emu.slash("alice", "where", channel=int(dm["id"]))
    assert own.payload["context"] == 1
    assert own.payload["authorizing_integration_owners"] == {"0": "0", "1": str(alice.id)}
    assert int(own.payload["app_permissions"]) == BOT_DM_APP_PERMISSIONS


async def test_a_button_carries_the_owners_of_its_command_and_anyone_may_press_it(emu_and_bot):
    emu, _ = emu_and_bot
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    message = await (await emu.slash("alice", "where", channel=dm)).reply()
    press = await emu.click("bob", message, label="Move…")  # bob installed nothing
    assert press.payload["authorizing_integration_owners"] == {"1": str(emu.user("alice").id)}
    assert press.payload["user"]["id"] == str(emu.user("bob").id)
    assert await press.acknowledged() == 9


# ----- registration -------------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    {"name": "game", "description": "d", "type": 1, "contexts": [0, 3]},
    {"name": "game", "description": "d", "type": 1, "integration_types": [2]},
])
async def test_contexts_must_have_known_values(emu_and_bot, rest, command):
    emu, _ = emu_and_bot
    path = f"/applications/{emu.application_id}/commands"
    status, body = await rest(emu, "PUT", path, body=[command])
    assert (status, body["code"]) == (400, 50035)


async def test_contexts_on_a_sub_command_are_ignored(emu_and_bot, rest):
    """The option structure has no ``contexts`` nor ``integration_types``: Discord accepts a
    sub-command carrying them, drops them, and offers it wherever its command is."""
    emu, _ = emu_and_bot
    path = f"/applications/{emu.application_id}/commands"
    command = {"name": "game", "description": "d", "type": 1,
               "integration_types": [0, 1], "contexts": [0, 1, 2], "options": [
                   {"name": "group", "description": "d", "type": 2, "contexts": [0],
                    "options": [{"name": "start", "description": "d", "type": 1,
                                 "integration_types": [0], "contexts": [0]}]}]}
    status, stored = await rest(emu, "PUT", path, body=[command])
    assert status == 200, stored
    group = stored[0]["options"][0]
    assert "contexts" not in group and "contexts" not in group["options"][0]
    assert "integration_types" not in group["options"][0]
    assert sorted(stored[0]["contexts"]) == [0, 1, 2]
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    interaction = await emu.slash("alice", "game group start", channel=dm)
    assert interaction.payload["context"] == 2, "offered where its top-level command is"


async def test_an_install_type_the_application_does_not_support_is_refused(emu_and_bot, rest):
    emu, _ = emu_and_bot
    emu.install_types = {0}
    path = f"/applications/{emu.application_id}/commands"
    command = {"name": "game", "description": "d", "type": 1, "integration_types": [0, 1]}
    assert (await rest(emu, "PUT", path, body=[command]))[0] == 400
    command["integration_types"] = [0]
    status, stored = await rest(emu, "PUT", path, body=[command])
    assert status == 200 and stored[0]["integration_types"] == [0]
    assert stored[0]["contexts"] is None


async def test_discord_py_registers_contexts_on_the_top_level_command(emu_and_bot):
    emu, _ = emu_and_bot
    where = next(c for c in emu.commands[None] if c["name"] == "where")
    assert sorted(where["integration_types"]) == [0, 1]
    assert sorted(where["contexts"]) == [0, 1, 2]
    hello = next(c for c in emu.commands[None] if c["name"] == "hello")
    assert hello["integration_types"] == [0], "a command without installs is a server's"


# ----- what the bot may not do where it is not -----------------------------------------------


async def test_channel_routes_fail_with_missing_access_where_the_bot_is_not(emu_and_bot, rest):
    emu, _ = emu_and_bot
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    group = emu.open_group_dm("alice", "bob", "carol")
    _, botless = emu.add_guild("No bot here", bot=False)
    for channel in (dm, group, botless):
        interaction = await emu.slash("alice", "where", channel=channel)
        old = await interaction.reply()
        attempts = [
            ("POST", f"/channels/{channel}/messages", {"content": "hi"}),
            ("PATCH", f"/channels/{channel}/messages/{old.id}", {"content": "edited"}),
            ("PUT", f"/channels/{channel}/messages/pins/{old.id}", None),
            ("POST", f"/channels/{channel}/threads", {"name": "game", "type": 11}),
            ("POST", f"/channels/{channel}/messages/{old.id}/threads", {"name": "game"}),
        ]
        for method, path, body in attempts:
            status, answer_body = await rest(emu, method, path, body=body)
            assert (status, answer_body["code"]) == (403, 50001), (method, path)
    assert {r.code for r in emu.refusals} == {50001} and len(emu.refusals) == 15


async def test_pins_in_a_server_need_pin_messages(emu_and_bot, rest):
    emu, _ = emu_and_bot
    status, message = await rest(emu, "POST", f"/channels/{emu.channel_id}/messages",
                                 body={"content": "pin me"})
    path = f"/channels/{emu.channel_id}/messages/pins/{message['id']}"
    status, body = await rest(emu, "PUT", path)
    assert (status, body["code"]) == (403, 50013)
    emu.bot_permissions |= PIN_MESSAGES
    assert (await rest(emu, "PUT", path))[0] == 204


async def test_follow_ups_die_after_fifteen_minutes(emu_and_bot, rest):
    emu, _ = emu_and_bot
    emu.install_app("alice")
    interaction = await emu.slash("alice", "hush", channel=emu.open_dm("alice", "bob"))
    assert (await answer(interaction, rest, emu, {"type": 4, "data": {"content": "a"}}))[0] == 200
    follow_up = f"/webhooks/{emu.application_id}/{interaction.token}?wait=true"
    emu.advance(14 * 60)
    assert (await rest(emu, "POST", follow_up, body={"content": "b"}, token=False))[0] == 200
    emu.advance(61)
    status, body = await rest(emu, "POST", follow_up, body={"content": "c"}, token=False)
    assert (status, body["code"]) == (401, 50027)
    edit = f"/webhooks/{emu.application_id}/{interaction.token}/messages/@original"
    status, body = await rest(emu, "PATCH", edit, body={"content": "d"}, token=False)
    assert (status, body["code"]) == (401, 50027)


async def test_a_user_install_alone_gets_five_follow_ups(emu_and_bot):
    emu, _ = emu_and_bot
    emu.install_app("alice")
    dm = emu.open_dm("alice", "bob")
    await (await emu.slash("alice", "where", {"follow_ups": 5}, channel=dm)).reply(
        lambda m: m.content == "follow-up 5")
    assert emu.refusals == []
    sixth = await emu.slash("alice", "where", {"follow_ups": 6}, channel=dm)
    await sixth.reply(lambda m: m.content == "follow-up 5")
    refused = await emu.wait_for(lambda e: e.kind == "refused")
    assert (refused.data.status, refused.data.code) == (400, 40094)
    # Where the server's install authorizes it too, there is no such limit.
    server = await emu.slash("alice", "where", {"follow_ups": 6})
    await server.reply(lambda m: m.content == "follow-up 6")


async def test_without_use_external_apps_every_answer_is_ephemeral(emu_and_bot):
    emu, _ = emu_and_bot
    _, botless = emu.add_guild("No bot here", bot=False)
    emu.install_app("bob")
    emu.revoke("bob", USE_EXTERNAL_APPS)
    interaction = await emu.slash("bob", "where", {"follow_ups": 1}, channel=botless)
    first = await interaction.reply()
    assert first.ephemeral and first.flags & EPHEMERAL
    assert "external=False" in first.content, "the bot can read it from the permissions"
    follow = await interaction.reply(lambda m: m.content == "follow-up 1")
    assert follow.ephemeral
    # In the bot's own server the permission does not matter.
    public = await (await emu.slash("bob", "where")).reply()
    assert not public.ephemeral


async def test_a_user_who_refuses_dms_gets_none_from_the_bot(emu_and_bot, rest):
    emu, _ = emu_and_bot
    bob, alice = emu.user("bob"), emu.user("alice")
    emu.refuse_dms("bob")
    _, dm = await rest(emu, "POST", "/users/@me/channels", body={"recipient_id": str(bob.id)})
    status, body = await rest(emu, "POST", f"/channels/{dm['id']}/messages",
                              body={"content": "your turn"})
    assert (status, body["code"]) == (403, 50007)
    _, other = await rest(emu, "POST", "/users/@me/channels", body={"recipient_id": str(alice.id)})
    assert (await rest(emu, "POST", f"/channels/{other['id']}/messages",
                       body={"content": "your turn"}))[0] == 200
    emu.refuse_dms("bob", refused=False)
    assert (await rest(emu, "POST", f"/channels/{dm['id']}/messages",
                       body={"content": "your turn"}))[0] == 200


async def test_a_response_in_a_dm_notifies_only_its_members(emu_and_bot, rest):
    emu, _ = emu_and_bot
    emu.install_app("alice")
    bob, carol = emu.user("bob"), emu.user("carol")
    interaction = await emu.slash("alice", "hush", channel=emu.open_dm("alice", "bob"))
    body = {"type": 4, "data": {"content": f"{bob.mention} your turn, {carol.mention} watch"}}
    await answer(interaction, rest, emu, body)
    message = await interaction.reply()
    assert message.notified == frozenset({bob.id})


# ----- modals --------------------------------------------------------------------------------


async def test_a_button_opens_a_modal_whose_submission_reaches_the_bot(emu_and_bot):
    emu, _ = emu_and_bot
    emu.install_app("alice")
    group = emu.open_group_dm("alice", "bob", "carol")
    message = await (await emu.slash("alice", "where", channel=group)).reply()
    press = await emu.click("carol", message, label="Move…")
    assert await press.acknowledged() == 9
    assert press.modal["title"] == "Your move"
    with pytest.raises(LookupError):
        await emu.submit_modal("carol", press, {})  # the move is required
    submitted = await emu.submit_modal("carol", press, {"Move": "f"})
    assert submitted.payload["type"] == 5
    assert submitted.payload["authorizing_integration_owners"] == {
        "1": str(emu.user("alice").id)}
    assert (await submitted.reply()).content == "carol played f"
    assert emu.refusals == []


@pytest.mark.parametrize("modal", [
    {"custom_id": "m", "title": "x" * 46,
     "components": [{"type": 1, "components": [
         {"type": 4, "custom_id": "a", "style": 1, "label": "A"}]}]},
    {"custom_id": "m", "title": "t", "components": []},
    {"custom_id": "m", "title": "t",
     "components": [{"type": 1, "components": [
         {"type": 4, "custom_id": "a", "style": 1, "label": "A", "placeholder": "p" * 101}]}]},
])
async def test_modal_limits(emu_and_bot, rest, modal):
    emu, _ = emu_and_bot
    interaction = await emu.slash("alice", "silent")
    status, body = await answer(interaction, rest, emu, {"type": 9, "data": modal})
    assert (status, body["code"]) == (400, 50035)


async def test_a_modal_submission_cannot_be_answered_with_a_modal(emu_and_bot, rest):
    emu, _ = emu_and_bot
    interaction = await emu.slash("alice", "silent")  # the test answers by hand
    modal = {"custom_id": "nobody-knows", "title": "t", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "a", "style": 1, "label": "A"}]}]}
    assert (await answer(interaction, rest, emu, {"type": 9, "data": modal}))[0] == 200
    submitted = await emu.submit_modal("alice", interaction, {"a": "x"})  # the bot ignores it
    status, body = await answer(submitted, rest, emu, {"type": 9, "data": modal})
    assert (status, body["code"]) == (400, 50035)
    status, body = await answer(submitted, rest, emu, {"type": 4, "data": {"content": "ok"}})
    assert status == 200, "a message is a valid answer to a submission"


async def test_the_bots_dm_is_not_a_dm_between_users(emu_and_bot, rest):
    emu, _ = emu_and_bot
    alice = emu.user("alice")
    between = emu.open_dm("alice", "bob")
    _, own = await rest(emu, "POST", "/users/@me/channels", body={"recipient_id": str(alice.id)})
    assert int(own["id"]) != between and emu.context_of(int(own["id"])) == 1
    assert (await rest(emu, "POST", f"/channels/{own['id']}/messages",
                       body={"content": "hi"}))[0] == 200
