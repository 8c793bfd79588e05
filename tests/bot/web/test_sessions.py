"""The web board's signed sessions: what a cookie or a token says is read back only when it
was signed with our key, for its own use, and is young enough."""

from __future__ import annotations

from bot.web.sessions import SESSION_SECONDS, STATE_SECONDS, Sessions, Visitor, signing_key

ALICE = Visitor(1100000000000000001, "Alice")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_cookie_and_a_token_say_who_signed_in():
    sessions = Sessions("client-secret")
    assert sessions.from_cookie(sessions.cookie(ALICE)) == ALICE
    assert sessions.from_token(sessions.token(ALICE)) == ALICE


def test_a_session_ends_after_its_lifetime():
    clock = Clock()
    sessions = Sessions("client-secret", clock=clock)
    cookie, token = sessions.cookie(ALICE), sessions.token(ALICE)
    clock.now += SESSION_SECONDS
    assert sessions.from_cookie(cookie) == ALICE
    clock.now += 2
    assert sessions.from_cookie(cookie) is None
    assert sessions.from_token(token) is None


def test_a_changed_or_foreign_value_is_nobody():
    sessions = Sessions("client-secret")
    cookie = sessions.cookie(ALICE)
    payload, _, rest = cookie.partition(".")
    other = Sessions("client-secret").cookie(Visitor(2, "Mallory")).partition(".")[0]
    for forged in (other + "." + rest,  # another user's payload under Alice's signature
                   # (the signature's last character has spare bits: change one before it)
                   cookie[:-3] + ("A" if cookie[-3] != "A" else "B") + cookie[-2:],
                   Sessions("another-secret").cookie(ALICE),
                   sessions.token(ALICE),  # a token is not a cookie
                   "", "garbage", payload):
        assert sessions.from_cookie(forged) is None, forged
    assert sessions.from_token(cookie) is None


def test_the_key_is_not_the_client_secret():
    assert b"client-secret" not in signing_key("client-secret")
    assert signing_key("a") != signing_key("b")


def test_an_oauth_state_holds_its_nonce_and_page_for_a_while():
    clock = Clock()
    sessions = Sessions("client-secret", clock=clock)
    state = sessions.state("nonce", "/games/3")
    assert sessions.read_state(state) == ("nonce", "/games/3")
    assert sessions.from_cookie(state) is None
    clock.now += STATE_SECONDS + 2
    assert sessions.read_state(state) is None
