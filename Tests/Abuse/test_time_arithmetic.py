"""Times a client chooses, against the built server: a token's `exp` far in the future is refused at `hello`
and at `refresh` (it claims to live longer than `--jwt-max-lifetime`, a year by default), and a server whose
operator allows such tokens still arms its timers without trapping (docs/RELIABILITY.md, "times a client
gives"). Before, `Int64(wait * 1_000)` trapped right after `welcome` and the node went down.
"""
import base64
import hashlib
import hmac
import json
import subprocess
import time

from abusekit import SECRET, RawSocket, serve, token, typewire_server, welcomed


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hs256(claims, secret=SECRET):
    """A token signed here, as any holder of the secret could, with whatever `exp` the test wants."""
    signing = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64(json.dumps(claims).encode())
    return signing + "." + b64(hmac.new(secret.encode(), signing.encode(), hashlib.sha256).digest())


def answer_to_hello(server, jwt):
    ws = RawSocket(server.host, server.port)
    ws.send_json({"type": "hello", "token": jwt})
    return ws, ws.next(lambda frame: frame["type"] in ("welcome", "error"), "the answer to hello")


def test_a_token_that_claims_to_live_for_ever_is_refused_and_the_server_stays_up(tmp_path):
    with serve(tmp_path) as server:
        now = int(time.time())
        for exp in (now + 400 * 86_400, now + 10**16, 10**300):
            ws, answer = answer_to_hello(server, hs256({"sub": "alice", "name": "Alice", "exp": exp}))
            assert answer["type"] == "error" and answer["code"] == "unauthorized", (exp, answer)
            ws.close()
        ws = welcomed(server, token("alice", "Alice"))
        ws.send_json({"type": "refresh", "token": hs256({"sub": "alice", "exp": now + 10**16})})
        refused = ws.next(lambda frame: frame["type"] in ("refreshed", "error"), "the answer to refresh")
        assert refused["type"] == "error" and refused["request"] == "refresh", refused
        _, answer = answer_to_hello(server, token("bob", "Bob"))
        assert answer["type"] == "welcome" and server.alive(), server.log()


def test_timers_far_ahead_do_not_trap_where_the_operator_allows_long_tokens(tmp_path):
    # 10^15 s allowed: a token 10^14 s ahead passes, and its expiry timer (10^17 ms, past what NIO's
    # nanoseconds hold) is armed clamped; `refreshed` carries the token's own expiry.
    with serve(tmp_path, "--jwt-max-lifetime", str(10**15)) as server:
        exp = int(time.time()) + 10**14
        ws, answer = answer_to_hello(server, hs256({"sub": "alice", "name": "Alice", "exp": exp}))
        assert answer["type"] == "welcome", answer
        ws.send_json({"type": "refresh", "token": hs256({"sub": "alice", "exp": exp + 1})})
        refreshed = ws.next(lambda frame: frame["type"] in ("refreshed", "error"), "the answer to refresh")
        # Past 2^53 ms a Date's Double holds the time to within a few milliseconds.
        assert refreshed["type"] == "refreshed" and abs(refreshed["expiresAt"] - (exp + 1) * 1000) <= 64, refreshed
        ws.send_json({"type": "subscribe", "conversation": "direct-alice-bob"})
        ws.next(lambda frame: frame["type"] == "subscribed", "subscribed: the socket and the server are up")
        assert server.alive(), server.log()


def test_typewire_token_mints_no_token_longer_than_a_year():
    run = subprocess.run(
        [str(typewire_server.binary()), "token", "--user", "alice", "--jwt-secret", SECRET, "--lifetime", str(10**12)],
        capture_output=True, text=True)
    assert run.returncode != 0 and "--lifetime must be 1 to 31536000 seconds" in run.stderr, (run.returncode, run.stderr)
