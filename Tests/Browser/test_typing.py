"""Typing indicators between two real browser sessions on `typewire serve --demo`."""

import pathlib
import time

from pages import protocol_script

HERE = pathlib.Path(__file__).resolve().parent
PROTOCOL_TYPERS = protocol_script("protocol_typers.js")
RECORDER = (HERE / "recorder.js").read_text()
#: How late a stop may show beyond the sender's idle timeout: delivery, rendering and polling.
MARGIN = 1.2


def test_b_sees_alice_typing(pages):
    a, b = pages
    a.sign_in("alice").open("direct-alice-bob")
    b.sign_in("bob").open("direct-alice-bob")
    b.wait_for_no_indicator(5)  # nothing left over from earlier tests

    a.type("W")
    b.wait_for_indicator("Alice is typing…", 10)
    assert b.indicator()[2] == "Alice is typing", "the polite live region says it without the ellipsis"
    a.type("here shall we meet")
    b.screenshot("typing-direct")
    a.type("?\n")  # send, so the next test starts from an idle composer
    b.wait_for_no_indicator(10)


def test_the_indicator_goes_within_the_idle_timeout_after_alice_stops(pages):
    a, b = pages
    a.sign_in("alice").open("direct-alice-bob")
    b.sign_in("bob").open("direct-alice-bob")
    idle = a.interval("idle-timeout")

    a.type("Let me check the ")
    last_key = time.monotonic()
    b.wait_for_indicator("Alice is typing…", 10)
    b.wait_for_no_indicator(idle + MARGIN - (time.monotonic() - last_key))
    gone_after = time.monotonic() - last_key
    assert gone_after >= idle - 0.5, f"the indicator went {gone_after:.2f} s after the last key, before the idle timeout ({idle} s)"
    assert a.composer.get_attribute("value") == "Let me check the ", "the draft stays: only the typing stopped"
    b.screenshot("typing-stopped")


def test_the_indicator_goes_no_later_than_alices_message_shows(pages):
    a, b = pages
    a.sign_in("alice").open("direct-alice-bob")
    b.sign_in("bob").open("direct-alice-bob")

    text = f"See you at eight ({time.monotonic_ns()})"
    a.type(text)
    b.wait_for_indicator("Alice is typing…", 10)
    b.js(RECORDER, text)
    a.type("\n")
    b.wait(lambda d: any(m["text"] == text for m in b.messages()), 10, "Alice's message shows on Bob's page")
    b.wait_for_no_indicator(10)  # the order, not the time, is what this test checks
    events = {event["what"]: event for event in b.js("return window.typewireRecord.events")}
    assert "indicator-hidden" in events, f"the indicator never hid: {events}"
    assert events["indicator-hidden"]["sequence"] < events["message-shown"]["sequence"], (
        f"the indicator went after the message showed: {events}"
    )
    assert a.composer.get_attribute("value") == ""
    b.screenshot("typing-sent")


def test_a_group_with_four_typers_names_two_and_counts_the_others(minute_pages):
    # On the server with a minute's ttl and idle timeout: Alice stays typing however long the four take to
    # show, and what clears typing below is a closed socket and an emptied composer, never a timer.
    a, b = minute_pages
    a.sign_in("alice").open("group-six")
    b.sign_in("erin").open("group-six")
    a.driver.set_script_timeout(15)
    a.send("Picnic at the lake on Saturday?")
    b.wait(lambda d: any(m["text"] == "Picnic at the lake on Saturday?" for m in b.messages()), 10, "Erin sees Alice's message")
    b.send("I'm in! I can bring lemonade.")
    a.wait(lambda d: any(m["text"] == "I'm in! I can bring lemonade." for m in a.messages()), 10, "Alice sees Erin's reply")

    a.type("Who brings the")  # Alice, in her browser, starts first
    b.wait_for_indicator("Alice is typing…", 10)
    error = a.driver.execute_async_script(PROTOCOL_TYPERS, ["bob", "carol", "dave"], "group-six")
    assert error is None, error
    try:
        a.type(" snacks")  # still typing
        b.wait_for_indicator("Alice, Bob, and 2 others are typing…", 10)
        assert b.indicator()[2] == "Alice, Bob, and 2 others are typing"
        b.screenshot("typing-group-four")
    finally:
        a.js("window.closeProtocolTypers?.()")
    b.wait_for_indicator("Alice is typing…", 10)  # closing a socket clears its typing (the ttl is a minute)
    a.composer.clear()
    a.type("x\b")  # an emptied composer stops at once (the idle timeout is a minute)
    b.wait_for_no_indicator(10)
