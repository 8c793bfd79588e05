"""The rules on the web board: the texts ``/rules`` gives in Discord, as a page in the
visitor's language, escaped."""

from __future__ import annotations

from html import escape

from bot.core import rules


async def read(client, path: str, lang: str) -> tuple[int, str, dict]:
    async with client.session.get(f"{client.base}{path}",
                                  headers={"Accept-Language": lang}) as answer:
        return answer.status, await answer.text(), dict(answer.headers)


async def test_the_rules_page_gives_the_texts_of_rules_in_the_visitors_language(web_world):
    reader = web_world.client("dave")  # not signed in: the rules are for anyone, as in Discord
    status, page, headers = await read(reader, "/rules/lppg", "fr-FR,fr;q=0.9")
    assert status == 200 and page.startswith('<!doctype html><html lang="fr">')
    assert f"<h1>{escape(rules.title('lppg', 'fr'))}</h1>" in page
    for section_id in rules.SECTIONS:
        section = rules.section("lppg", section_id, "fr")
        assert escape(section.title) in page
        assert escape(section.body) in page
    # Written for Discord's chat, shown as written: its apostrophes and marks escaped.
    assert "n&#x27;importe" in page and "n'importe" not in page
    assert "Content-Security-Policy" in headers and "<script" not in page
    status, page, _ = await read(reader, "/rules/alak", "en")
    assert status == 200 and escape(rules.section("alak", "turn", "en").body) in page
    status, page, _ = await read(reader, "/rules/chess", "en")
    assert status == 404 and "chess" in page and "alak, polygo" in page
