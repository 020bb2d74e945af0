"""Fills a store through a running `typewire serve --seed-demo` (any release since 0.2.0), for the dumps that
SchemaUpgradeTests opens with later releases (scripts/schema_dump.sh runs it): messages with an edit and a reply in
a thread, reads (shared and private), delivered marks, settings (typing, presence, read receipts), a block, last
seen; the server's webhook events wait for a receiver that is down. Prints the message ids.
    python3 scripts/schema_fill.py TYPEWIRE_BINARY JWT_SECRET PORT
"""
import json, subprocess, sys, time, urllib.request
import websocket

BIN, SECRET, PORT = sys.argv[1], sys.argv[2], int(sys.argv[3])
BASE = f"http://127.0.0.1:{PORT}"

def token(user, bot=False):
    args = [BIN, "token", "--user", user, "--jwt-secret", SECRET] + (["--bot"] if bot else [])
    return subprocess.check_output(args, text=True).strip()

TOKENS = {u: token(u, u == "clawd") for u in ["alice", "bob", "carol", "dave", "erin", "frank", "clawd"]}

def rest(method, path, user, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method,
                                     headers={"Authorization": f"Bearer {TOKENS[user]}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return response.status, response.read()

class Socket:
    def __init__(self, user):
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{PORT}/v1/socket", timeout=10)
        self.send(type="hello", token=TOKENS[user])
        self.next(lambda f: f["type"] == "welcome")
    def send(self, **frame):
        self.ws.send(json.dumps(frame))
    def next(self, matches):
        while True:
            frame = json.loads(self.ws.recv())
            if frame["type"] == "error":
                raise RuntimeError(frame)
            if matches(frame):
                return frame

def send(sock, conversation, cid, text, thread=None):
    frame = dict(type="send", conversation=conversation, clientMessageId=cid, text=text)
    if thread: frame["thread"] = thread
    sock.send(**frame)
    return sock.next(lambda f: f["type"] == "ack" and f["clientMessageId"] == cid)["messageId"]

alice, bob, carol = Socket("alice"), Socket("bob"), Socket("carol")
for s in (alice, bob, carol):
    s.send(type="subscribe", conversation="group-six", readState=True)
    s.next(lambda f: f["type"] == "subscribed")
alice.send(type="subscribe", conversation="direct-alice-bob", readState=True); alice.next(lambda f: f["type"] == "subscribed")
bob.send(type="subscribe", conversation="direct-alice-bob", readState=True); bob.next(lambda f: f["type"] == "subscribed")

m1 = send(alice, "direct-alice-bob", "c-1", "Are you coming tonight?")
m2 = send(bob, "direct-alice-bob", "c-2", "Yes 🎉 — “on my way”\nsee you")
bob.send(type="edit", conversation="direct-alice-bob", messageId=m2, text="Yes 🎉 — “on my way”\nsee you soon")
bob.next(lambda f: f["type"] == "message" and f["id"] == m2 and f.get("editedAt"))
g1 = send(carol, "group-six", "g-1", "Hike on Sunday?")
g2 = send(alice, "group-six", "g-2", "Count me in", thread=g1)
g3 = send(carol, "group-six", "g-3", "Bring water")
# Reads: alice reads the group (shared), bob privately; bob's device received the group; alice read the thread.
alice.send(type="read", conversation="group-six", messageId=g3)
bob.send(type="read", conversation="group-six", messageId=g1, private=True)
bob.send(type="delivered", conversation="group-six", messageId=g3)
carol.send(type="read", conversation="group-six", messageId=g2)
alice.send(type="delivered", conversation="direct-alice-bob", messageId=m2)
time.sleep(1.5)  # the reads and marks are written (each answered by receipts, at most one a second)
# Settings and a block.
assert rest("PUT", "/v1/settings", "frank", {"shareTyping": False})[0] == 200
assert rest("PUT", "/v1/settings", "dave", {"readReceipts": "hide", "sharePresence": False})[0] == 200
assert rest("PUT", "/v1/blocks/dave", "erin")[0] == 204
for s in (alice, bob, carol):
    s.ws.close()
time.sleep(1.0)  # last seen written as the sockets close
print(json.dumps({"direct": [m1, m2], "group": [g1, g2, g3]}))
