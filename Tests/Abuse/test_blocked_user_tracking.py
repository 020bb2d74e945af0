"""What a blocked user can still learn of the user who blocked them, against the built server (with messages
and typing-only): nothing. Erin blocked Carol. Carol cannot put Erin in a new conversation with her, and in
the group they were both in already she sees Erin offline in every place presence shows (the participant
list, `subscribed`, `presence` frames) and never sees her typing; Bob, whom Erin did not block, sees it all.
A user may also share their presence with nobody.
"""
import json
import time

import pytest

from abusekit import rest, serve, subscribed, token, welcomed

GROUP = "group-six"
API_KEY = "abuse-tests-api-key-0123456789abcdef"


def online_in_participants(server, viewer, user):
    status, body = rest(server, "GET", f"/v1/conversations/{GROUP}/participants", user=viewer)
    assert status == 200, body
    return next(p["online"] for p in body["participants"] if p["id"] == user)


def frames_about(ws, user, seconds):
    """The frames naming `user` that reach `ws` within `seconds` (it reads for that long)."""
    ws.connection.settimeout(0.2)
    found, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            frame = ws.frame()
        except TimeoutError:
            continue
        if frame is None:
            break
        if frame[0] == 0x1 and f'"{user}"' in frame[1].decode():
            found.append(json.loads(frame[1]))
    ws.connection.settimeout(10)
    return found


@pytest.mark.parametrize("mode", [[], ["--no-messages"]], ids=["messages", "typing-only"])
def test_a_blocked_user_learns_nothing_of_the_blocker(tmp_path, mode):
    with serve(tmp_path, *mode) as server:
        assert rest(server, "PUT", "/v1/blocks/carol", user="erin")[0] == 204
        # No new conversation with her: direct or group, nor added to one of Carol's.
        for kind, members in [("direct", ["erin"]), ("group", ["erin", "bob"])]:
            status, body = rest(server, "POST", "/v1/conversations", {"kind": kind, "members": members}, user="carol")
            assert status == 403, (kind, status, body)
        status, own = rest(server, "POST", "/v1/conversations", {"kind": "group", "members": ["bob"]}, user="carol")
        assert status == 201
        assert rest(server, "POST", f"/v1/conversations/{own['id']}/participants", {"user": "erin"}, user="carol")[0] == 403

        erin = welcomed(server, token("erin", "Erin"))
        subscribed(erin, GROUP)
        carol, bob = welcomed(server, token("carol", "Carol")), welcomed(server, token("bob", "Bob"))
        seen_by_carol, seen_by_bob = subscribed(carol, GROUP), subscribed(bob, GROUP)
        assert not next(p for p in seen_by_carol["participants"] if p["id"] == "erin")["online"]
        assert next(p for p in seen_by_bob["participants"] if p["id"] == "erin")["online"]
        assert not online_in_participants(server, "carol", "erin") and online_in_participants(server, "bob", "erin")

        # Erin types, leaves and comes back: Bob sees each; Carol sees nothing of it.
        erin.send_json({"type": "activity", "conversation": GROUP, "activity": "typing"})
        bob.next(lambda f: f["type"] == "activity" and any(e["user"] == "erin" for e in f["entries"]), "erin typing")
        erin.close()
        bob.next(lambda f: f["type"] == "presence" and f["user"] == "erin" and not f["online"], "erin offline")
        erin = welcomed(server, token("erin", "Erin"))
        bob.next(lambda f: f["type"] == "presence" and f["user"] == "erin" and f["online"], "erin online")
        assert frames_about(carol, "erin", 1.0) == [], "Carol saw Erin's typing or presence"

        # The block lifted while both are online: Carol sees Erin come online; blocked again, go offline.
        assert rest(server, "DELETE", "/v1/blocks/carol", user="erin")[0] == 204
        carol.next(lambda f: f["type"] == "presence" and f["user"] == "erin" and f["online"], "erin online once unblocked")
        assert rest(server, "PUT", "/v1/blocks/carol", user="erin")[0] == 204
        carol.next(lambda f: f["type"] == "presence" and f["user"] == "erin" and not f["online"], "erin offline once blocked")
        for ws in (erin, carol, bob):
            ws.close()


def test_a_user_may_share_their_presence_with_nobody(tmp_path):
    with serve(tmp_path, "--api-key", API_KEY) as server:
        bob = welcomed(server, token("bob", "Bob"))
        subscribed(bob, GROUP)
        dave = welcomed(server, token("dave", "Dave"))
        bob.next(lambda f: f["type"] == "presence" and f["user"] == "dave" and f["online"], "dave online")
        status, settings = rest(server, "PUT", "/v1/settings", {"sharePresence": False}, user="dave")
        assert status == 200 and settings == {"shareTyping": True, "sharePresence": False, "readReceipts": "share"}, settings
        bob.next(lambda f: f["type"] == "presence" and f["user"] == "dave" and not f["online"], "dave offline once hidden")
        assert not online_in_participants(server, "bob", "dave")
        assert rest(server, "GET", "/v1/server/users/dave/presence", bearer=API_KEY)[1] == {"user": "dave", "online": False}
        dave.close()
        dave = welcomed(server, token("dave", "Dave"))  # a new socket says nothing either
        fresh = subscribed(welcomed(server, token("carol", "Carol")), GROUP)
        assert not next(p for p in fresh["participants"] if p["id"] == "dave")["online"]
        assert frames_about(bob, "dave", 1.0) == []
        dave.send_json({"type": "activity", "conversation": GROUP, "activity": "typing"})  # typing is its own setting
        bob.next(lambda f: f["type"] == "activity" and any(e["user"] == "dave" for e in f["entries"]), "dave typing")
        assert rest(server, "PUT", "/v1/settings", {"sharePresence": True}, user="dave")[0] == 200
        bob.next(lambda f: f["type"] == "presence" and f["user"] == "dave" and f["online"], "dave online once shared")
