"""What the abuse tests share: the built server with the tests' secret, tokens, and raw WebSockets
(Tests/Support/raw_socket.py) welcomed as a user.
"""
import json
import pathlib
import subprocess
import sys
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
import typewire_server  # noqa: E402  (the shared harness, found through the path above)
from raw_socket import RawSocket  # noqa: E402

SECRET = "abuse-tests-secret-0123456789abcdefghij"
LOG = ROOT / ".artifacts" / "abuse"


#: The `--close-timeout` (ms) of a test's server unless the test sets its own: how long a shutdown waits for a
#: peer's close frame. The tests' raw sockets never answer one, so the default 3 s was spent at every test's end.
CLOSE_TIMEOUT_MS = 200


def serve(tmp_path, *extra, **options):
    """The built `typewire serve --seed-demo` on a free port, with the tests' secret, a SQLite file in
    `tmp_path` and a short `--close-timeout` (CLOSE_TIMEOUT_MS) unless `extra` sets one."""
    arguments = ["serve", "--seed-demo", "--jwt-secret", SECRET, "--port", "0", "--sqlite", tmp_path / "t.sqlite", *extra]
    if "--close-timeout" not in extra:
        arguments += ["--close-timeout", CLOSE_TIMEOUT_MS]
    return typewire_server.running_server(arguments, LOG / f"{tmp_path.name}.log", **options)


def token(user, name, *extra):
    """A token from `typewire token` with the tests' secret (`extra`: `--bot`, `--lifetime N`)."""
    return subprocess.run(
        [str(typewire_server.binary()), "token", "--user", user, "--name", name, "--jwt-secret", SECRET, *extra],
        check=True, capture_output=True, text=True,
    ).stdout.strip()


def welcomed(server, user_token, **options):
    """A raw socket that said hello and got `welcome` (options as `RawSocket`'s)."""
    ws = RawSocket(server.host, server.port, **options)
    ws.send_json({"type": "hello", "token": user_token})
    ws.next(lambda frame: frame["type"] == "welcome", "welcome")
    return ws


def subscribed(ws, conversation):
    """Subscribes a socket and reads to its `subscribed`."""
    ws.send_json({"type": "subscribe", "conversation": conversation})
    return ws.next(lambda frame: frame["type"] == "subscribed" and frame["conversation"] == conversation, "subscribed")


def rest(server, method, path, body=None, *, user=None, bearer=None):
    """An HTTP request with a JSON body, as `user` (a token of theirs) or with `bearer` (an API key):
    (status, the JSON answer or None)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{server.url}{path}", data=data, method=method, headers={
        "Authorization": f"Bearer {bearer or token(user, user.capitalize())}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")
