"""Threads against the built server: what a client may name as a thread, and where a thread's replies and
typing go. A thread that is not a message of the conversation's main timeline is refused with
`invalid_field`, whatever it is; a device typing in many threads holds at most four of them."""
from abusekit import rest, serve, subscribed, token, welcomed

GROUP = "group-six"


def sent(ws, client_message_id, text, thread=None):
    frame = {"type": "send", "conversation": GROUP, "clientMessageId": client_message_id, "text": text}
    if thread is not None:
        frame["thread"] = thread
    ws.send_json(frame)
    return ws.next(lambda f: f.get("clientMessageId") == client_message_id and f["type"] == "ack" or
                   (f["type"] == "error" and f.get("ref") == client_message_id), f"the answer to {client_message_id}")


def test_a_thread_must_be_a_top_level_message_of_the_conversation(tmp_path):
    with serve(tmp_path) as server:
        alice = welcomed(server, token("alice", "Alice"))
        subscribed(alice, GROUP)
        parent = sent(alice, "p", "Picnic?")["messageId"]
        reply = sent(alice, "r", "Yes", parent)
        assert reply["type"] == "ack"
        for bad in ["999999", "abc", "", "1" * 21, reply["messageId"]]:
            answer = sent(alice, f"bad-{bad!s:.8}", "x", bad)
            assert answer["type"] == "error" and answer["code"] == "invalid_field", (bad, answer)
        status, page = rest(server, "GET", f"/v1/conversations/{GROUP}/messages?thread={parent}", user="bob")
        assert status == 200 and [m["text"] for m in page["messages"]] == ["Yes"]
        status, page = rest(server, "GET", f"/v1/conversations/{GROUP}/messages", user="bob")
        assert [m["text"] for m in page["messages"]] == ["Picnic?"], "the main timeline has no replies"
        status, _ = rest(server, "GET", f"/v1/conversations/{GROUP}/messages?thread=x", user="bob")
        assert status == 400


def test_typing_in_many_threads_holds_at_most_four_entries_of_a_socket(tmp_path):
    with serve(tmp_path) as server:
        alice = welcomed(server, token("alice", "Alice"))
        bob = welcomed(server, token("bob", "Bob"))
        subscribed(alice, GROUP)
        subscribed(bob, GROUP)
        for thread in range(1, 9):  # within the activity burst (20): none dropped by the rate limit
            alice.send_json({"type": "activity", "conversation": GROUP, "activity": "typing", "thread": str(thread)})
        last = bob.next(lambda f: f["type"] == "activity" and any(e.get("thread") == "8" for e in f["entries"]), "typing in thread 8")
        threads = sorted(int(e["thread"]) for e in last["entries"] if e["user"] == "alice")
        # Four at most; the newest is among them (which older one gave way is decided by start time, in
        # milliseconds: frames of one millisecond tie).
        assert len(threads) == 4 and 8 in threads, threads


def test_one_user_typing_in_many_threads_counts_once_in_total(tmp_path):
    # Three devices of one user, four threads each: twelve entries, and still one user typing.
    with serve(tmp_path) as server:
        bob = welcomed(server, token("bob", "Bob"))
        subscribed(bob, GROUP)
        devices = [welcomed(server, token("alice", "Alice")) for _ in range(3)]
        for device, threads in zip(devices, [range(1, 5), range(5, 9), range(9, 13)]):
            subscribed(device, GROUP)
            for thread in threads:
                device.send_json({"type": "activity", "conversation": GROUP, "activity": "typing", "thread": str(thread)})
        last = bob.next(lambda f: f["type"] == "activity" and len(f["entries"]) == 10, "ten entries listed")
        assert {e["user"] for e in last["entries"]} == {"alice"} and last["total"] == 1, last
