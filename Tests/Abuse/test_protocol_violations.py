"""Frames RFC 6455 forbids a client, against the built server: close codes that may not be sent, unmasked
frames and reserved bits without an extension. Each closes the socket with a protocol error (1002), and
the server never echoes a code that may not be on the wire. And the REST API's answer to a bad enum value.
"""
import json
import struct
import urllib.error
import urllib.request

import pytest

from abusekit import serve, token, welcomed
from raw_socket import CLOSE, TEXT, RawSocket


@pytest.mark.parametrize("code", [999, 1004, 1005, 1006, 1015, 2000, 5000])
def test_a_close_code_that_may_not_be_sent_is_answered_with_a_protocol_error(tmp_path, code):
    with serve(tmp_path) as server:
        ws = welcomed(server, token("erin", "Erin"))
        ws.send_frame(CLOSE, struct.pack("!H", code))
        answer, _ = ws.until_closed()
        assert answer == 1002, f"close code {code} was answered with {answer}"


@pytest.mark.parametrize("payload, expected", [(struct.pack("!H", 4000), 4000), (struct.pack("!H", 1000) + b"bye", 1000),
                                               (b"", 1000), (b"\x03", 1002), (struct.pack("!H", 1000) + b"\xff", 1007)])
def test_a_close_frame_is_answered_as_the_rfc_says(tmp_path, payload, expected):
    with serve(tmp_path) as server:
        ws = welcomed(server, token("erin", "Erin"))
        ws.send_frame(CLOSE, payload)
        answer, _ = ws.until_closed()
        assert answer == expected, f"a close frame {payload!r} was answered with {answer}"


@pytest.mark.parametrize("how", ["unmasked", "rsv1"])
def test_an_unmasked_frame_or_a_reserved_bit_closes_the_socket_with_a_protocol_error(tmp_path, how):
    with serve(tmp_path) as server:
        ws = welcomed(server, token("erin", "Erin"))
        frame = json.dumps({"type": "subscribe", "conversation": "group-six"}).encode()
        ws.send_frame(TEXT, frame, mask=how != "unmasked", rsv1=how == "rsv1")
        code, texts = ws.until_closed()
        assert code == 1002 and texts == [], f"{how}: {code}, {texts}"


def test_a_bad_kind_is_answered_in_words_not_with_a_type_name(tmp_path):
    with serve(tmp_path) as server:
        request = urllib.request.Request(
            f"{server.url}/v1/conversations", method="POST",
            data=json.dumps({"kind": "channel", "members": ["bob"]}).encode(),
            headers={"Authorization": f"Bearer {token('alice', 'Alice')}", "Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
        message = json.loads(refused.value.read())["error"]["message"]
        assert "direct" in message and "group" in message and "Kind" not in message, message


def test_more_than_256_frames_behind_a_hello_close_the_socket(tmp_path):
    """Frames sent behind a `hello`, in the same read, wait undecoded while it is checked: past 256 the
    socket is closed (1008). Two frames of 4 000 bytes first make the server's reads of the socket 4 KiB
    long (they grow with full reads), so that the `hello` and 400 small frames behind it come in one read."""
    with serve(tmp_path) as server:
        ws = RawSocket(server.host, server.port)
        for _ in range(2):
            ws.send_frame(TEXT, b" " * 4_000)  # not a hello: answered, the socket kept
            assert ws.next(lambda frame: True)["code"] == "unauthorized"
        hello = RawSocket.encode(TEXT, json.dumps({"type": "hello", "token": token("erin", "Erin")}).encode())
        ws.send_raw(hello + RawSocket.encode(TEXT, b"{}") * 400)
        code, texts = ws.until_closed()
        assert code == 1008 and "256" in ws.close_reason, (code, ws.close_reason, texts[:3])
        assert not any(frame.get("type") == "welcome" for frame in texts), "closed before welcome"


def test_a_message_past_the_frame_limit_is_answered_with_its_reference_and_welcome_states_the_limits(tmp_path):
    """5 000 emoji: within the 10 000-character limit, past the 16 KiB frame limit (20 000 bytes of UTF-8; 60 000 as
    this test escapes them in JSON). The answer
    names the message, so a client can fail that send; `welcome` says both limits, so the SDK refuses such a
    message before sending it."""
    with serve(tmp_path) as server:
        ws = RawSocket(server.host, server.port)
        ws.send_json({"type": "hello", "token": token("alice", "Alice")})
        welcome = ws.next(lambda frame: frame["type"] == "welcome", "welcome")
        assert welcome["config"]["maxMessageLength"] == 10_000 and welcome["config"]["maxFrameSize"] == 16_384, welcome
        ws.send_json({"type": "send", "conversation": "direct-alice-bob", "clientMessageId": "m-emoji", "text": "😀" * 5_000})
        error = ws.next(lambda frame: frame["type"] == "error", "the error")
        assert (error["code"], error.get("ref"), error.get("request")) == ("too_large", "m-emoji", "send"), error
        ws.send_json({"type": "send", "conversation": "direct-alice-bob", "clientMessageId": "m-short", "text": "fits"})
        assert ws.next(lambda frame: frame["type"] == "ack", "the ack")["clientMessageId"] == "m-short"
