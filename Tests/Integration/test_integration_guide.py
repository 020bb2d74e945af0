"""docs/INTEGRATION.md, run as written: the server started with the guide's command (Firebase's key-set
address swapped for one this test serves on 127.0.0.1), the members mirrored with the guide's curl
commands and its Node hook, then two users with Firebase-shaped RS256 tokens typing, and the guide's
checks read back.

Needs bash, curl, openssl, node 18+, python3 with `cryptography` and websocket-client.
"""
import base64
import http.server
import json
import os
import pathlib
import re
import stat
import subprocess
import sys
import threading
import time

import pytest
import websocket
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
import typewire_server  # noqa: E402  (the shared harness, found through the path above)

GUIDE = ROOT / "docs" / "INTEGRATION.md"
GOOGLE_KEY_SET = "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
LOG = ROOT / ".artifacts" / "integration"


def guide_blocks():
    """The fenced blocks marked `<!-- guide: NAME -->`, by name."""
    text = GUIDE.read_text()
    return {name: code for name, code in re.findall(r"<!-- guide: (\S+) -->\n```\w*\n(.*?)```", text, re.S)}


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class IdentityProvider:
    """Firebase Authentication's part: an RSA key, its key set on 127.0.0.1, and ID tokens."""

    def __init__(self):
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        numbers = self.key.public_key().public_numbers()
        self.kid = "test-key-1"
        self.key_set = json.dumps({"keys": [{
            "kty": "RSA", "kid": self.kid, "alg": "RS256", "use": "sig",
            "n": b64url(numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")),
            "e": b64url(numbers.e.to_bytes(3, "big")),
        }]}).encode()
        provider = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(provider.key_set)))
                self.end_headers()
                self.wfile.write(provider.key_set)

            def log_message(self, *arguments):
                pass

        self.http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/jwk"

    def token(self, uid, project, audience=None):
        """An ID token as Firebase makes them: RS256, `kid`, `iss`, `aud`, `sub`, `iat`, `exp`."""
        now = int(time.time())
        header = {"alg": "RS256", "kid": self.kid, "typ": "JWT"}
        claims = {"iss": f"https://securetoken.google.com/{project}", "aud": audience or project, "sub": uid,
                  "user_id": uid, "iat": now, "auth_time": now, "exp": now + 3600}
        signing_input = f"{b64url(json.dumps(header).encode())}.{b64url(json.dumps(claims).encode())}"
        signature = self.key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
        return f"{signing_input}.{b64url(signature)}"


class Socket:
    """A websocket-client connection that said hello."""

    def __init__(self, url, token):
        self.ws = websocket.create_connection(url, timeout=10)
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.welcome = self.next(lambda frame: frame["type"] in ("welcome", "error"))

    def send(self, **frame):
        self.ws.send(json.dumps(frame))

    def next(self, matches, limit=10):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            frame = json.loads(self.ws.recv())
            if matches(frame):
                return frame
        raise AssertionError("no matching frame")


@pytest.fixture()
def guide_server(tmp_path):
    """The server, started by the guide's own `serve` block, and what that block exported."""
    provider = IdentityProvider()
    shim = tmp_path / "bin"
    shim.mkdir()
    wrapper = shim / "typewire"
    # `typewire` as the guide calls it: notes the guide's settings, then runs the built binary on a free
    # port and a file of this test.
    wrapper.write_text(
        "#!/bin/sh\n"
        f"printf '%s\\n' \"$FIREBASE_PROJECT\" \"$TYPEWIRE_API_KEY\" > '{tmp_path}/settings'\n"
        f"exec '{typewire_server.binary()}' \"$@\" --port 0 --sqlite '{tmp_path}/typewire.sqlite'\n"
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    serve = guide_blocks()["serve"]
    assert GOOGLE_KEY_SET in serve, "the guide names Firebase's key set"
    # The two changes to the guide's text: the key set is this test's, and the shell hands its process to
    # the server (so that stopping it stops the server).
    command = serve.replace(GOOGLE_KEY_SET, provider.url).replace("typewire serve", "exec typewire serve")
    environment = {**os.environ, "PATH": f"{shim}:{os.environ['PATH']}"}
    with typewire_server.running_server(["-c", command], LOG / f"{tmp_path.name}.log", executable="/bin/bash", env=environment) as server:
        project, key = (tmp_path / "settings").read_text().split()
        yield server, provider, project, {**os.environ, "TYPEWIRE_URL": server.url, "TYPEWIRE_API_KEY": key}
    provider.http.shutdown()


def run_block(name, environment):
    """Runs a `sh` block of the guide with bash; returns what it printed."""
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", guide_blocks()[name]], env=environment,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"the guide's {name} block failed: {done.stderr}"
    return done.stdout


def test_the_guide_runs_as_written(guide_server, tmp_path):
    server, provider, project, environment = guide_server
    # Step 2: the members, with curl as the guide shows.
    mirrored = run_block("mirror", environment)
    assert '"joined":["uid-ada","uid-grace"]' in mirrored, mirrored

    # Step 3: two users of the app, with their Firebase ID tokens.
    ada = Socket(server.socket_url, provider.token("uid-ada", project))
    grace = Socket(server.socket_url, provider.token("uid-grace", project))
    assert ada.welcome["type"] == "welcome" and ada.welcome["user"] == {"id": "uid-ada", "name": "Ada", "online": True}
    assert ada.welcome["config"]["storesMessages"] is False, "typing-only, as the guide runs it"
    for socket in (ada, grace):
        socket.send(type="subscribe", conversation="trip-planning")
        socket.next(lambda frame: frame["type"] == "subscribed")
    ada.send(type="activity", conversation="trip-planning", activity="typing")
    seen = grace.next(lambda frame: frame["type"] == "activity" and frame["entries"])
    assert [(entry["user"], entry["name"], entry["activity"]) for entry in seen["entries"]] == [("uid-ada", "Ada", "typing")]
    ada.send(type="send", conversation="trip-planning", clientMessageId="m1", text="Flights are booked")
    refused = ada.next(lambda frame: frame["type"] == "error")
    assert refused["code"] == "messages_disabled" and refused["ref"] == "m1"

    # Step 5: the guide's checks.
    checks = run_block("activity", environment).splitlines()
    activity, presence = json.loads(checks[0]), json.loads(checks[1])
    assert [entry["user"] for entry in activity["entries"]] == ["uid-ada"] and activity["entries"][0]["activity"] == "typing"
    assert presence == {"user": "uid-ada", "online": True}

    # A token of another Firebase project is refused.
    stranger = Socket(server.socket_url, provider.token("uid-ada", project, audience="another-project"))
    assert stranger.welcome["type"] == "error" and stranger.welcome["code"] == "unauthorized"

    # Step 4: a bot, marked and added by the guide's block, streams its reply through the typing-only
    # server: the members get every part and the end of its activity; nothing is stored.
    assert '"joined":["uid-clawd"]' in run_block("bot", environment)
    clawd = Socket(server.socket_url, provider.token("uid-clawd", project))
    clawd.send(type="subscribe", conversation="trip-planning")
    clawd.next(lambda frame: frame["type"] == "subscribed")
    def bot_activity(frame):
        return {entry["activity"] for entry in frame.get("entries", []) if entry["user"] == "uid-clawd"}
    clawd.send(type="activity", conversation="trip-planning", activity="thinking")
    grace.next(lambda frame: frame["type"] == "activity" and bot_activity(frame) == {"thinking"})
    clawd.send(type="activity", conversation="trip-planning", activity="typing")
    grace.next(lambda frame: frame["type"] == "activity" and bot_activity(frame) == {"typing"})
    clawd.send(type="stream", conversation="trip-planning", messageId="r1", delta="Flights ")
    clawd.send(type="stream", conversation="trip-planning", messageId="r1", delta="found.", final=True)
    parts = [grace.next(lambda frame: frame["type"] == "stream") for _ in range(2)]
    assert [(part["user"], part["delta"], part["final"]) for part in parts] == [("uid-clawd", "Flights ", False), ("uid-clawd", "found.", True)]
    grace.next(lambda frame: frame["type"] == "activity" and not bot_activity(frame))
    history = subprocess.run(
        ["curl", "-fsS", f"{server.url}/v1/conversations/trip-planning/messages", "-H", f"Authorization: Bearer {provider.token('uid-grace', project)}"],
        capture_output=True, text=True, timeout=30, check=True,
    )
    assert json.loads(history.stdout) == {"messages": []}, history.stdout

    # Step 6's backfill and the trigger's filter, with the hook's own functions: 20 conversations mirrored
    # again at once; a document whose members did not change calls nothing.
    hook = tmp_path / "typewire.mjs"
    hook.write_text(guide_blocks()["typewire.js"])
    call = ("const hook = await import(process.argv[1]);"
            "const documents = Array.from({length: 20}, (_, i) => ({id: `backfilled-${i}`, data: {type: 'group', title: `Group ${i}`, members: ['uid-ada', 'uid-grace']}}));"
            "const same = {type: 'group', title: 'T', members: ['a', 'b'], lastMessage: 'x'};"
            "console.log(JSON.stringify({mirrored: await hook.mirrorAll(documents),"
            " unchanged: hook.conversationChanged(same, {...same, members: ['b', 'a'], lastMessage: 'y'}),"
            " members: hook.conversationChanged(same, {...same, members: ['a', 'b', 'c']}),"
            " title: hook.conversationChanged(same, {...same, title: 'U'}), created: hook.conversationChanged(undefined, same)}));")
    done = subprocess.run(["node", "--input-type=module", "-e", call, hook.as_uri()], env=environment, capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == {"mirrored": 20, "unchanged": False, "members": True, "title": True, "created": True}, done.stdout
    ada.send(type="subscribe", conversation="backfilled-19")
    assert ada.next(lambda frame: frame["type"] in ("subscribed", "error"))["type"] == "subscribed"

    # The hook of step 2, run by node: Lin joins; then the document is deleted and everyone loses it.
    call = ("const hook = await import(process.argv[1]);"
            "await hook.mirrorConversation('trip-planning', {type: 'group', title: 'Trip planning', members: ['uid-ada', 'uid-grace', 'uid-lin']});")
    subprocess.run(["node", "--input-type=module", "-e", call, hook.as_uri()], env=environment, check=True, timeout=60)
    lin = Socket(server.socket_url, provider.token("uid-lin", project))
    lin.send(type="subscribe", conversation="trip-planning")
    lin.next(lambda frame: frame["type"] == "subscribed")
    call = "const hook = await import(process.argv[1]); await hook.forgetConversation('trip-planning');"
    subprocess.run(["node", "--input-type=module", "-e", call, hook.as_uri()], env=environment, check=True, timeout=60)
    for socket in (ada, grace, lin):
        ended = socket.next(lambda frame: frame["type"] == "error")
        assert ended["code"] == "unknown_conversation" and ended["ref"] == "trip-planning"


def test_the_webhook_receiver_pushes_what_offline_members_missed(tmp_path):
    """Step 7: the guide's webhook.js, run by node with a push that prints, behind a server that keeps
    messages: a message to an offline member is pushed to them; a forged delivery is refused."""
    secret = "integration-webhook-secret-0123456789abcdef"
    receiver_module = tmp_path / "webhook.mjs"
    receiver_module.write_text(guide_blocks()["webhook.js"])
    script = ("const hook = await import(process.argv[1]);"
              "const server = hook.serve(async (users, message) => console.log(JSON.stringify({users, text: message.text})), 0);"
              "server.on('listening', () => console.log(JSON.stringify({port: server.address().port})));")
    node = subprocess.Popen(["node", "--input-type=module", "-e", script, receiver_module.as_uri()],
                            env={**os.environ, "TYPEWIRE_WEBHOOK_SECRET": secret}, stdout=subprocess.PIPE, text=True)
    try:
        port = json.loads(node.stdout.readline())["port"]
        jwt_secret = "integration-jwt-secret-0123456789abcdef"
        arguments = ["serve", "--seed-demo", "--port", "0", "--jwt-secret", jwt_secret, "--sqlite", tmp_path / "typewire.sqlite",
                     "--webhook-url", f"http://127.0.0.1:{port}/", "--webhook-secret", secret]
        with typewire_server.running_server(arguments, LOG / f"{tmp_path.name}-webhooks.log") as server:
            token = subprocess.run([str(typewire_server.binary()), "token", "--user", "alice", "--name", "Alice", "--jwt-secret", jwt_secret],
                                   capture_output=True, text=True, check=True, timeout=30).stdout.strip()
            alice = Socket(server.socket_url, token)
            alice.send(type="send", conversation="direct-alice-bob", clientMessageId="m1", text="Dinner at 8?")
            alice.next(lambda frame: frame["type"] == "ack")
            assert json.loads(node.stdout.readline()) == {"users": ["bob"], "text": "Dinner at 8?"}
        forged = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", f"http://127.0.0.1:{port}/",
                                 "-H", "Typewire-Signature: t=1,v1=00", "-d", '{"id":"evt_x","type":"message.created"}'],
                                capture_output=True, text=True, timeout=30)
        assert forged.stdout == "401"
    finally:
        node.kill()
        node.wait(10)
