"""Requests that race each other through the APIs, against the built server: a conversation's rules hold
whatever order concurrent changes commit in (checked inside the store's transaction), and messages sent
while a conversation is deleted do not survive it into a conversation made again under the same id.
"""
import threading
from concurrent.futures import ThreadPoolExecutor

from abusekit import rest, serve, subscribed, token, welcomed

API_KEY = "abuse-tests-api-key-0123456789abcdef"


def request(server, method, path, body=None, bearer=API_KEY):
    return rest(server, method, path, body, bearer=bearer)


def test_a_direct_and_a_group_put_at_once_never_mix(tmp_path):
    with serve(tmp_path, "--api-key", API_KEY) as server, ThreadPoolExecutor(2) as pool:
        for trial in range(24):
            path = f"/v1/server/conversations/both-{trial}"
            bodies = [{"kind": "direct", "members": ["a", "b"]}, {"kind": "group", "members": ["a", "b", "x", "y", "z"]}]
            answers = list(pool.map(lambda body: request(server, "PUT", path, body), bodies))
            statuses = sorted(status for status, _ in answers)
            assert statuses == [201, 409], f"trial {trial}: {answers}"
            winner = next(body for status, body in answers if status == 201)
            assert len(winner["members"]) == (2 if winner["kind"] == "direct" else 5), winner


def test_concurrent_adds_stop_at_the_member_limit(tmp_path):
    with serve(tmp_path, "--api-key", API_KEY) as server, ThreadPoolExecutor(30) as pool:
        status, _ = request(server, "PUT", "/v1/server/conversations/big", {"kind": "group", "members": [f"m{i}" for i in range(999)]})
        assert status == 201
        statuses = list(pool.map(lambda i: request(server, "PUT", f"/v1/server/conversations/big/participants/new{i}")[0], range(30)))
        assert statuses.count(204) == 1 and statuses.count(400) == 29, statuses
        # The group now has its 1 000: its creator's REST adds are refused too (the server API's group has no creator,
        # so the REST side is checked on a group of Alice's).
        alice = token("alice", "Alice")
        status, group = request(server, "POST", "/v1/conversations", {"kind": "group", "members": [f"u{i}" for i in range(998)]}, bearer=alice)
        assert status == 201, group
        adds = list(pool.map(lambda i: request(server, "POST", f"/v1/conversations/{group['id']}/participants", {"user": f"late{i}"}, bearer=alice)[0], range(20)))
        assert adds.count(204) == 1 and adds.count(400) == 19, adds


def test_messages_sent_while_a_conversation_is_deleted_do_not_survive_it(tmp_path):
    senders = ["alice", "bob", "carol", "dave"]
    with serve(tmp_path, "--api-key", API_KEY, "--message-rate", "1000") as server:
        tokens = {user: token(user, user.capitalize()) for user in senders + ["erin"]}
        for trial in range(8):
            conversation = f"deleted-{trial}"
            assert request(server, "PUT", f"/v1/server/conversations/{conversation}", {"kind": "group", "members": senders})[0] == 201
            sockets = [welcomed(server, tokens[user]) for user in senders]
            for ws in sockets:
                subscribed(ws, conversation)
            start = threading.Barrier(len(senders) + 1)

            def send(ws, user):
                start.wait()
                for index in range(20):
                    ws.send_json({"type": "send", "conversation": conversation, "clientMessageId": f"{user}-{index}", "text": "x"})

            threads = [threading.Thread(target=send, args=(ws, user)) for ws, user in zip(sockets, senders)]
            for thread in threads:
                thread.start()
            start.wait()
            assert request(server, "DELETE", f"/v1/server/conversations/{conversation}")[0] == 204
            for thread in threads:
                thread.join()
            for ws in sockets:
                ws.close()
            assert request(server, "PUT", f"/v1/server/conversations/{conversation}", {"kind": "group", "members": ["erin"]})[0] == 201
            erin = welcomed(server, tokens["erin"])
            fresh = subscribed(erin, conversation)
            erin.close()
            assert fresh["recentMessages"] == [], f"trial {trial}: {len(fresh['recentMessages'])} messages of the deleted conversation"
