"""Threads in the web demo between two real browser sessions on `typewire serve --demo`: the thread panel's
own typing indicator and composer, "… replying…" on the parent message, replies that stay out of the main
timeline, and a bot's reply streamed into a thread."""

import pathlib
import time

import pytest

from pages import protocol_script

HERE = pathlib.Path(__file__).resolve().parent
PROTOCOL_TYPERS = protocol_script("protocol_typers.js")
THREAD_RECORDER = (HERE / "thread_recorder.js").read_text()
THREAD_BOT = protocol_script("thread_bot.js")
GROUP = "group-six"


def start_thread(a, b):
    """Alice (page A) and Bob (page B) in the group; Alice posts a message; both see it stored. Its id."""
    a.sign_in("alice").open(GROUP)
    b.sign_in("bob").open(GROUP)
    text = f"Who is up for a hike? ({time.monotonic_ns()})"
    parent = a.send_and_wait_stored(text)
    assert b.wait_for_message_id(text) == parent
    return parent


def stop_typing_in_thread(a):
    """Empties Alice's thread composer, which stops her typing at once."""
    a.thread_composer.clear()
    a.type_reply("x\b")


def activity_frames(page):
    """The activity frames the page sent since record_sent_frames()."""
    return [frame for frame in page.sent_frames() if frame["type"] == "activity"]


def recorded(page):
    return page.js("return window.typewireThreadRecord")


@pytest.fixture()
def pages(minute_pages):
    """Every test here claims a stop: the pages are on the server whose typing ends only by one."""
    return minute_pages


def test_typing_in_a_thread_shows_in_its_panel_and_on_the_parent_not_in_the_main_indicator(pages):
    a, b = pages
    parent = start_thread(a, b)
    b.open_thread(parent)
    a.open_thread(parent)
    b.wait_for_no_thread_indicator(5)
    b.js(THREAD_RECORDER, parent, None)

    a.type_reply("I can bring")
    b.wait_for_thread_indicator("Alice is typing…", 10)
    assert b.thread_indicator()[2] == "Alice is typing", "the panel's polite live region says it without the ellipsis"
    b.wait_for_replying(parent, "1 person is replying…", 10)
    assert not b.indicator()[0], "the main timeline's indicator does not show typing in a thread"
    assert a.thread_line(parent)[1] is None, "Alice's own typing is not shown to her"
    b.screenshot("thread-typing")

    stop_typing_in_thread(a)
    b.wait_for_no_thread_indicator(10)
    b.wait_for_replying(parent, None, 10)
    record = recorded(b)
    assert record["main"] == [], f"the main indicator showed {record['main']} while Alice typed in the thread"
    assert record["thread"] == ["Alice is typing…"], record
    assert record["replying"] == ["1 person is replying…"], record


def test_typing_in_the_main_composer_shows_in_the_main_indicator_not_in_the_thread_panel(pages):
    a, b = pages
    parent = start_thread(a, b)
    b.open_thread(parent)
    b.js(THREAD_RECORDER, parent, None)

    a.type("Saturday works for me")
    b.wait_for_indicator("Alice is typing…", 10)
    assert not b.thread_indicator()[0], "the thread panel's indicator does not show typing in the main timeline"
    assert b.thread_line(parent)[1] is None, "no one is replying in the thread"

    a.composer.clear()
    a.type("x\b")  # an emptied composer stops at once
    b.wait_for_no_indicator(10)
    record = recorded(b)
    assert record["main"] == ["Alice is typing…"], record
    assert record["thread"] == [] and record["replying"] == [], f"the thread showed main-timeline typing: {record}"


def test_two_typers_in_a_thread_make_the_parent_say_2_people_are_replying(pages):
    a, b = pages
    parent = start_thread(a, b)
    b.open_thread(parent)
    a.open_thread(parent)
    a.driver.set_script_timeout(15)

    a.type_reply("Count me")  # Alice, in her browser, starts first
    b.wait_for_thread_indicator("Alice is typing…", 10)
    b.wait_for_replying(parent, "1 person is replying…", 10)
    error = a.driver.execute_async_script(PROTOCOL_TYPERS, ["carol"], GROUP, parent)  # Carol, over a socket of her own
    assert error is None, error
    try:
        a.type_reply(" in")  # still typing
        b.wait_for_replying(parent, "2 people are replying…", 10)
        b.wait_for_thread_indicator("Alice and Carol are typing…", 10)
        assert b.thread_indicator()[2] == "Alice and Carol are typing"
        assert not b.indicator()[0], "the main indicator shows neither"
        a.wait_for_replying(parent, "1 person is replying…", 10)  # Alice sees Carol only
        b.screenshot("thread-two-replying")
    finally:
        a.js("window.closeProtocolTypers?.()")
    b.wait_for_replying(parent, "1 person is replying…", 10)  # closing a socket clears its typing at once
    b.wait_for_thread_indicator("Alice is typing…", 10)
    stop_typing_in_thread(a)
    b.wait_for_replying(parent, None, 10)
    b.wait_for_no_thread_indicator(10)


def test_a_reply_shows_in_the_thread_panel_not_in_the_main_timeline_and_clears_the_replying(pages):
    a, b = pages
    parent = start_thread(a, b)
    b.open_thread(parent)
    a.open_thread(parent)
    assert b.thread_line(parent) == (None, None), "no replies yet"

    text = f"Count me in ({time.monotonic_ns()})"
    a.type_reply(text)
    b.wait_for_thread_indicator("Alice is typing…", 10)
    b.wait_for_replying(parent, "1 person is replying…", 10)
    b.js(THREAD_RECORDER, parent, text)
    a.type_reply("\n")

    b.wait(lambda d: any(m["text"] == text and m["id"] and m["sender"] == "alice" for m in b.thread_messages()), 10,
           f"Alice's reply shows stored in Bob's thread panel (it shows {b.thread_messages()!r})")
    b.wait_for_no_thread_indicator(10)  # the order, not the time, is what this test checks
    b.wait_for_replying(parent, None, 10)
    events = {event["what"]: event for event in recorded(b)["events"]}
    assert {"thread-indicator-hidden", "replying-hidden", "reply-shown"} <= events.keys(), events
    assert events["thread-indicator-hidden"]["sequence"] < events["reply-shown"]["sequence"], (
        f"the thread's indicator went after the reply showed: {events}"
    )
    assert events["replying-hidden"]["sequence"] < events["reply-shown"]["sequence"], (
        f"the parent's replying line went after the reply showed: {events}"
    )
    assert not recorded(b)["replyInMain"], "the reply never showed in Bob's main timeline"
    assert all(m["text"] != text for m in b.messages())
    b.wait(lambda d: b.thread_line(parent) == ("1 reply", None), 10,
           f"the parent counts the reply (it shows {b.thread_line(parent)!r})")
    assert b.js("return document.querySelector('[data-testid=thread-count]').textContent") == "1 reply"
    b.screenshot("thread-reply")

    a.wait(lambda d: any(m["text"] == text and m["id"] for m in a.thread_messages()), 10, "Alice's reply is stored")
    assert all(m["text"] != text for m in a.messages()), "not in Alice's main timeline either"
    assert a.thread_composer.get_attribute("value") == ""
    assert a.thread_line(parent)[0] == "1 reply"


def test_closing_the_panel_or_leaving_the_conversation_stops_typing_in_the_thread(pages):
    a, b = pages
    parent = start_thread(a, b)
    b.open_thread(parent)
    a.open_thread(parent)
    a.record_sent_frames()
    stop = {"type": "activity", "conversation": GROUP, "thread": parent, "activity": "none"}

    a.type_reply("Maybe")
    b.wait_for_thread_indicator("Alice is typing…", 10)
    assert {"type": "activity", "conversation": GROUP, "thread": parent, "activity": "typing"} in activity_frames(a)
    a.close_thread()
    assert activity_frames(a)[-1] == stop, f"closing the panel sends the thread's stop at once: {activity_frames(a)}"
    b.wait_for_no_thread_indicator(10)
    b.wait_for_replying(parent, None, 10)

    a.open_thread(parent)
    assert a.thread_composer.get_attribute("value") == "Maybe", "the draft stays for later"
    a.record_sent_frames()
    a.type_reply(" not")
    b.wait_for_thread_indicator("Alice is typing…", 10)
    a.open("direct-alice-bob")
    assert stop in activity_frames(a), f"leaving the conversation sends the thread's stop: {activity_frames(a)}"
    assert not a.thread_panel()["open"], "the panel closes with its conversation"
    b.wait_for_no_thread_indicator(10)
    b.wait_for_replying(parent, None, 10)


def test_a_bots_reply_streams_into_the_thread_panel(pages):
    a, _ = pages
    a.sign_in("alice").open("bot-clawd")
    clawd_before = sum(m["sender"] == "clawd" and m["id"] is not None for m in a.messages())
    text = f"Tell me in a thread ({time.monotonic_ns()})"
    parent = a.send_and_wait_stored(text)
    # The demo bot answers in the main timeline first; its reply ends before the thread's starts.
    a.wait(lambda d: sum(m["sender"] == "clawd" and m["id"] is not None for m in a.messages()) > clawd_before
           and not any(m["cursor"] for m in a.messages()), 20, "the demo bot's own reply ends (it must be running)")
    a.open_thread(parent)
    main_before = a.messages()

    a.driver.set_script_timeout(15)
    error = a.driver.execute_async_script(THREAD_BOT, "clawd", "bot-clawd", parent, ["Here", " is", " a"])
    assert error is None, error
    try:
        a.wait(lambda d: [(m["sender"], m["text"], m["cursor"]) for m in a.thread_messages()] == [("clawd", "Here is a", True)], 10,
               f"the reply streams into the panel with a cursor (it shows {a.thread_messages()!r})")
        assert a.messages() == main_before, "nothing of it shows in the main timeline"
        assert not a.thread_indicator()[0], "the cursor stands for the bot: no indicator beside it"
        a.js("window.finishThreadReply(' reply in the thread.')")
        a.wait(lambda d: [(m["sender"], m["text"], m["cursor"], bool(m["id"])) for m in a.thread_messages()]
               == [("clawd", "Here is a reply in the thread.", False, True)], 10,
               f"the final part ends the cursor and the stored reply merges into the bubble (it shows {a.thread_messages()!r})")
        assert a.js("return window.threadBotErrors()") == []
    finally:
        a.js("window.closeThreadBot?.()")
    a.wait(lambda d: a.thread_line(parent)[0] == "1 reply", 10, f"the parent counts the reply ({a.thread_line(parent)!r})")
    assert a.messages() == main_before, "the stored reply stays out of the main timeline"
