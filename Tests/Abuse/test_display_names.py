"""Display names and ids an attacker puts in a token, against the built server: a 20 000-character name
with a bidi override, and a user id with a zero-width space. Others see at most 200 visible characters; the
id is refused (the token is invalid).
"""
import base64
import hashlib
import hmac
import json
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from abusekit import SECRET, rest, serve, subscribed, token, welcomed
from raw_socket import RawSocket


def forged(claims):
    """An HS256 token with the tests' secret and any claims (as a script with the secret makes them)."""
    encode = lambda data: base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()  # noqa: E731
    head = encode({"alg": "HS256", "typ": "JWT"}) + "." + encode({"exp": int(time.time()) + 3600, **claims})
    signature = hmac.new(SECRET.encode(), head.encode(), hashlib.sha256).digest()
    return head + "." + base64.urlsafe_b64encode(signature).rstrip(b"=").decode()


def test_a_huge_name_with_a_bidi_override_reaches_others_cut_and_cleaned(tmp_path):
    with serve(tmp_path) as server:
        bob = welcomed(server, token("bob", "Bob"))
        subscribed(bob, "group-six")
        # The name is recorded through REST (whose request heads may be 32 KiB), then a socket without a name uses it.
        name = "\u202e" + "A" * 20_000
        request = urllib.request.Request(f"{server.url}/v1/conversations", headers={"Authorization": f"Bearer {forged({'sub': 'alice', 'name': name})}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
        alice = welcomed(server, forged({"sub": "alice"}))
        alice.send_json({"type": "activity", "conversation": "group-six", "activity": "typing"})
        update = bob.next(lambda f: f["type"] == "activity" and any(e["user"] == "alice" for e in f["entries"]), "alice typing")
        shown = next(e["name"] for e in update["entries"] if e["user"] == "alice")
        assert shown == "A" * 200, f"{len(shown)} characters, starting {shown[:3]!r}"


@pytest.mark.parametrize("user", ["ali\u200bce", "\u202eecila", "a" * 300])
def test_a_user_id_with_invisible_characters_or_too_long_is_refused(tmp_path, user):
    with serve(tmp_path) as server:
        ws = RawSocket(server.host, server.port)
        ws.send_json({"type": "hello", "token": forged({"sub": user, "name": "Mallory"})})
        assert ws.next(lambda f: True)["code"] == "unauthorized"
        code, _ = ws.until_closed()
        assert code == 1008
        request = urllib.request.Request(f"{server.url}/v1/conversations", headers={"Authorization": f"Bearer {forged({'sub': user})}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 401


BAD_IDS = ["bob\u202e", "b\u200bob", "x" * 300, "tab\there"]


API_KEY = "abuse-tests-api-key-0123456789abcdef"


def test_every_route_that_names_an_id_refuses_or_does_not_find_a_bad_one_and_stores_nothing(tmp_path):
    """Walks every REST and server API route that takes an id in its path or body with each bad id: a route
    that would store the id answers 400; one that only looks an id up answers 400 or 404; none answers 5xx."""
    with serve(tmp_path, "--api-key", API_KEY) as server:
        before = rest(server, "GET", "/v1/conversations/group-six/participants", user="alice")[1]
        for bad in BAD_IDS:
            q = urllib.parse.quote(bad, safe="")
            stores = {
                "create": rest(server, "POST", "/v1/conversations", {"kind": "group", "members": ["bob", bad]}, user="alice"),
                "add": rest(server, "POST", "/v1/conversations/group-six/participants", {"user": bad}, user="alice"),
                "block": rest(server, "PUT", f"/v1/blocks/{q}", user="alice"),
                "api user": rest(server, "PUT", f"/v1/server/users/{q}", {"name": "Mallory"}, bearer=API_KEY),
                "api conversation": rest(server, "PUT", f"/v1/server/conversations/{q}", {"kind": "group", "members": ["alice", "bob"]}, bearer=API_KEY),
                "api member": rest(server, "PUT", f"/v1/server/conversations/{q}", {"kind": "group", "members": ["alice", bad]}, bearer=API_KEY),
                "api add": rest(server, "PUT", f"/v1/server/conversations/group-six/participants/{q}", bearer=API_KEY),
            }
            for route, (status, body) in stores.items():
                assert status == 400 and "without control, bidi or zero-width characters" in body["error"]["message"], (route, bad, status, body)
            looks_up = {
                "participants": rest(server, "GET", f"/v1/conversations/{q}/participants", user="alice"),
                "messages": rest(server, "GET", f"/v1/conversations/{q}/messages", user="alice"),
                "add to": rest(server, "POST", f"/v1/conversations/{q}/participants", {"user": "bob"}, user="alice"),
                "remove from": rest(server, "DELETE", f"/v1/conversations/{q}/participants/bob", user="alice"),
                "api activity": rest(server, "GET", f"/v1/server/conversations/{q}/activity", bearer=API_KEY),
                "api presence": rest(server, "GET", f"/v1/server/users/{q}/presence", bearer=API_KEY),
                "api delete": rest(server, "DELETE", f"/v1/server/conversations/{q}", bearer=API_KEY),
                "api remove": rest(server, "DELETE", f"/v1/server/conversations/group-six/participants/{q}", bearer=API_KEY),
            }
            for route, (status, body) in looks_up.items():
                assert status in (400, 404), (route, bad, status, body)
        assert rest(server, "GET", "/v1/conversations/group-six/participants", user="alice")[1] == before
        status, conversations = rest(server, "GET", "/v1/conversations", user="alice")
        assert all(bad not in [c["id"] for c in conversations["conversations"]] for bad in BAD_IDS)
        # Removals and unblocks take any id, so that one stored before the rule can be cleared.
        assert rest(server, "DELETE", f"/v1/blocks/{urllib.parse.quote(BAD_IDS[0], safe='')}", user="alice")[0] == 204


def test_a_title_is_bounded_in_characters_and_bytes_and_cleaned(tmp_path):
    with serve(tmp_path, "--api-key", API_KEY) as server:
        combining = "e" + "\u0301" * 10  # one character, 21 bytes of UTF-8: 200 of them fit the characters, not the bytes
        for title in ("A" * 201, combining * 200):
            status, body = rest(server, "POST", "/v1/conversations", {"kind": "group", "members": ["bob"], "title": title}, user="alice")
            assert status == 400 and "bytes of UTF-8" in body["error"]["message"], (status, body)
            status, body = rest(server, "PUT", "/v1/server/conversations/t", {"kind": "group", "members": ["alice", "bob"], "title": title}, bearer=API_KEY)
            assert status == 400, (status, body)
        status, body = rest(server, "PUT", "/v1/server/users/mallory", {"name": combining * 200}, bearer=API_KEY)
        assert status == 400, (status, body)
        spoof = "\u202eevil\u200b\nplan\u2066"
        status, created = rest(server, "POST", "/v1/conversations", {"kind": "group", "members": ["bob"], "title": spoof}, user="alice")
        assert status == 201 and created["title"] == "evil plan", created
        status, state = rest(server, "PUT", "/v1/server/conversations/t", {"kind": "group", "members": ["alice", "bob"], "title": spoof}, bearer=API_KEY)
        assert status in (200, 201) and state["title"] == "evil plan", state
        listed = rest(server, "GET", "/v1/conversations", user="bob")[1]["conversations"]
        assert sorted(c.get("title") for c in listed if c["id"] in (created["id"], "t")) == ["evil plan", "evil plan"]
