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


def test_every_rest_route_that_adds_a_user_id_refuses_a_bad_one_and_stores_nothing(tmp_path):
    with serve(tmp_path) as server:
        for bad in BAD_IDS:
            quoted = urllib.parse.quote(bad, safe="")
            answers = {
                "create": rest(server, "POST", "/v1/conversations", {"kind": "group", "members": ["bob", bad]}, user="alice"),
                "add": rest(server, "POST", "/v1/conversations/group-six/participants", {"user": bad}, user="alice"),
                "block": rest(server, "PUT", f"/v1/blocks/{quoted}", user="alice"),
            }
            for route, (status, body) in answers.items():
                assert status == 400 and "without control, bidi or zero-width characters" in body["error"]["message"], (route, bad, status, body)
        status, listed = rest(server, "GET", "/v1/conversations/group-six/participants", user="alice")
        assert status == 200 and all(p["id"] not in BAD_IDS for p in listed["participants"])
        status, conversations = rest(server, "GET", "/v1/conversations", user="alice")
        assert len(conversations["conversations"]) == 2 + len([c for c in conversations["conversations"] if c["id"].startswith("bot-")])
        # Removals and unblocks take any id, so that one stored before the rule can be cleared.
        assert rest(server, "DELETE", f"/v1/blocks/{urllib.parse.quote(BAD_IDS[0], safe='')}", user="alice")[0] == 204
