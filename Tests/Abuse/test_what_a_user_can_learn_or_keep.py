"""Smaller leaks and leftovers, against the built server: a stranger's probes tell nothing of which
conversations are open, a bot flag does not outlive the token that claimed it, and typing-only mode serves
no message stored before the switch.
"""
import json

from abusekit import rest, serve, subscribed, token, welcomed
from raw_socket import TEXT


def test_a_strangers_probes_get_the_same_answer_whether_a_conversation_is_open_or_missing(tmp_path):
    with serve(tmp_path) as server:
        alice = welcomed(server, token("alice", "Alice"))
        subscribed(alice, "direct-alice-bob")  # open on the server: its members are cached
        carol = welcomed(server, token("carol", "Carol"))  # not in it
        frame = lambda conversation: json.dumps({"type": "subscribe", "conversation": conversation}).encode()  # noqa: E731
        # 25 missing ids spend her budget of lookups (20 at once), then the open conversation, in one write.
        carol.send_raw(b"".join(carol.encode(TEXT, frame(f"nope-{index}")) for index in range(25)) + carol.encode(TEXT, frame("direct-alice-bob")))
        answers = [carol.next(lambda f: f["type"] == "error", "an answer")["code"] for _ in range(26)]
        assert answers[:20] == ["unknown_conversation"] * 20 and set(answers[20:25]) == {"rate_limited"}, answers
        assert answers[25] == "rate_limited", "the open conversation was answered unlike a missing one"


def test_a_bot_flag_does_not_outlive_the_token_that_claimed_it(tmp_path):
    with serve(tmp_path) as server:
        part = {"type": "stream", "conversation": "direct-alice-bob", "messageId": "r1", "delta": "Hi"}
        for flags, expected in [(["--bot"], "unknown_conversation"), ([], "forbidden"), (["--bot"], "unknown_conversation")]:
            ws = welcomed(server, token("erin", "Erin", *flags))  # Erin is not in the direct chat: a bot gets that far
            ws.send_json(part)
            assert ws.next(lambda f: f["type"] == "error", "the answer")["code"] == expected, flags
            ws.close()


def test_typing_only_mode_serves_no_message_stored_before_the_switch(tmp_path):
    with serve(tmp_path) as server:
        alice = welcomed(server, token("alice", "Alice"))
        alice.send_json({"type": "send", "conversation": "direct-alice-bob", "clientMessageId": "m1", "text": "kept from before"})
        alice.next(lambda f: f["type"] == "ack", "ack")
        alice.close()
    with serve(tmp_path, "--no-messages") as server:  # the same SQLite file
        status, page = rest(server, "GET", "/v1/conversations/direct-alice-bob/messages", user="bob")
        assert status == 200 and page == {"messages": []}, page
        assert subscribed(welcomed(server, token("bob", "Bob")), "direct-alice-bob")["recentMessages"] == []
