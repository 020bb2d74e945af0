"""`refresh` against the built server: a socket cannot change its user with it, its budget is the user's
handshakes, and a valid one moves the socket's expiry to the new token's (docs/PROTOCOL.md, "refresh").
"""
import base64
import json

from abusekit import serve, token, welcomed


def expiry_ms(jwt):
    """The `exp` a token claims, in milliseconds."""
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["exp"] * 1000


def test_a_refresh_with_another_users_token_closes_the_socket_with_1008(tmp_path):
    with serve(tmp_path) as server:
        ws = welcomed(server, token("alice", "Alice"))
        ws.send_json({"type": "refresh", "token": token("bob", "Bob")})
        code, texts = ws.until_closed()
        refusals = [frame for frame in texts if frame["type"] == "error"]
        assert refusals and refusals[0]["code"] == "unauthorized" and refusals[0]["request"] == "refresh", texts
        assert code == 1008 and not any(frame["type"] == "refreshed" for frame in texts)


def test_a_refresh_moves_the_expiry_to_the_new_tokens_and_spends_a_handshake(tmp_path):
    # Three handshakes at once and none regained: the hello takes one, two refreshes the rest.
    with serve(tmp_path, "--handshake-burst", "3", "--handshake-rate", "0.001") as server:
        ws = welcomed(server, token("alice", "Alice", "--lifetime", "60"))
        fresh = token("alice", "Alice", "--lifetime", "7200")
        for _ in range(2):
            ws.send_json({"type": "refresh", "token": fresh})
            refreshed = ws.next(lambda frame: frame["type"] in ("refreshed", "error"), "the answer to refresh")
            assert refreshed["type"] == "refreshed", refreshed
            assert abs(refreshed["expiresAt"] - expiry_ms(fresh)) <= 1, (refreshed, expiry_ms(fresh))  # exp may have a fraction
        ws.send_json({"type": "refresh", "token": fresh})
        refused = ws.next(lambda frame: frame["type"] in ("refreshed", "error"), "the answer to refresh")
        assert refused["code"] == "rate_limited" and refused["request"] == "refresh", refused
        ws.send_json({"type": "subscribe", "conversation": "direct-alice-bob"})
        ws.next(lambda frame: frame["type"] == "subscribed", "subscribed: the socket was kept")
