"""The bot conversation: "Clawd is thinking…", then a reply streamed word by word with a blinking cursor,
then idle. The bot is the server's own demo bot (`typewire serve --demo`)."""

import json
import pathlib
import time
import urllib.request

from selenium.webdriver.common.by import By

from pages import protocol_script

HERE = pathlib.Path(__file__).resolve().parent
RECORDER = (HERE / "recorder.js").read_text()
STOP_BOT = protocol_script("stop_bot.js")


def clawd_messages(page):
    return [m for m in page.messages() if m["sender"] == "clawd"]


def test_the_bot_thinks_then_streams_its_reply_then_goes_idle(pages):
    a, _ = pages
    a.sign_in("alice").open("bot-clawd")
    # The page names no bot of its own: the server flags Clawd among the participants (`bot: true`).
    a.wait(lambda d: a.js("return document.getElementById('chat-subtitle').textContent").startswith("AI assistant"), 15,
           "the header calls Clawd an AI assistant, from the participants' bot flag")
    before = len(clawd_messages(a))
    a.js(RECORDER, None)

    a.send("What does Typewire do?")
    a.wait(lambda d: "Clawd is thinking…" in a.js("return window.typewireRecord.indicated"), 15,
           f"the indicator says 'Clawd is thinking…' (it showed {a.js('return window.typewireRecord.indicated')!r};"
           " the server's demo bot must be running)")
    visible, text, spoken = a.indicator()
    if visible and text == "Clawd is thinking…":
        assert spoken == "Clawd is thinking", "the polite live region says it too"
        a.screenshot("bot-thinking")

    a.wait(lambda d: any(m["cursor"] for m in clawd_messages(a)), 15,
           "the reply starts streaming with a cursor at its end (the server's demo bot must be running)")
    assert not a.indicator()[0], "while the reply streams, the cursor replaces the thinking indicator"
    a.screenshot("bot-streaming")

    # The last part ends the cursor; the stored message comes in a frame of its own just after it.
    a.wait(lambda d: not any(m["cursor"] for m in clawd_messages(a)) and not a.indicator()[0]
           and any(m["id"] for m in clawd_messages(a)[before:]), 20,
           "the reply ends: no cursor, no indicator, and the stored message merged into the bubble")
    replies = clawd_messages(a)[before:]
    assert len(replies) == 1, f"one bubble for the reply, the stored message merged into it: {replies}"
    reply = replies[0]
    assert reply["text"].strip(), "the reply has words"
    assert reply["id"], "the stored message (clientMessageId stream-<messageId>) merged into the streamed bubble"
    assert not reply["streaming"]
    streamed = a.js("return window.typewireRecord.streamed")
    assert len(streamed) >= 2, f"the reply arrived in parts, not at once: {streamed}"
    assert all(reply["text"].startswith(part.rstrip()) for part in streamed), f"each part extends the last: {streamed}"
    a.screenshot("bot-done")


def test_the_askers_stop_button_stops_the_bot_and_the_reply_ends_as_stopped_with_its_words_so_far(pages):
    a, _ = pages
    a.sign_in("alice").open("bot-clawd")
    before = len(clawd_messages(a))
    # Clicks Stop the moment it shows (a person would a moment later; the bot writes for about 4 s), and keeps
    # what the bubble said then.
    a.js("""const list = document.querySelector('[data-testid=messages]');
      new MutationObserver((_, observer) => {
        const stop = list.querySelector('[data-testid=stop-reply]');
        if (!stop) return;
        observer.disconnect();
        window.typewireStoppedAt = stop.closest('[data-testid=message]').querySelector('[data-testid=message-text]').textContent;
        stop.click();
      }).observe(list, { childList: true, subtree: true });""")
    a.send("Tell me everything about typing indicators")
    a.wait(lambda d: any(m["id"] and m["end"] for m in clawd_messages(a)[before:]), 20,
           "the reply ends and its words so far are stored (the server's demo bot must be running)")
    replies = clawd_messages(a)[before:]
    assert len(replies) == 1, f"one bubble: {replies}"
    reply = replies[0]
    assert reply["end"] == "cancelled", f"the bot ended its reply as stopped: {reply}"
    assert reply["meta"].endswith("· Stopped"), reply["meta"]
    assert not reply["cursor"] and not reply["stop"], "no cursor and no Stop button once it ended"
    stopped_at = a.js("return window.typewireStoppedAt")
    assert reply["text"].startswith(stopped_at), f"the words before the stop are kept: {stopped_at!r} / {reply['text']!r}"
    assert not reply["text"].endswith("then it is stored."), f"the bot stopped before the end of its answer: {reply['text']!r}"
    a.screenshot("bot-stopped")


def group_with_clawd(base_url):
    """A new group of alice, bob and clawd, made by alice through the REST API before the pages sign in (the
    page lists its conversations when it signs in); returns its id."""
    with urllib.request.urlopen(f"{base_url}/v1/demo/token?user=alice", timeout=10) as answer:
        token = json.load(answer)["token"]
    body = json.dumps({"kind": "group", "title": f"Ask Clawd {time.time_ns()}", "members": ["bob", "clawd"]}).encode()
    request = urllib.request.Request(f"{base_url}/v1/conversations", data=body, method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)["id"]


def test_another_member_gets_no_stop_button_and_sees_the_reply_end_as_stopped_by_the_asker(pages):
    a, b = pages
    group = group_with_clawd(a.base_url)
    a.sign_in("alice").open(group)
    b.sign_in("bob").open(group)
    error = b.driver.execute_async_script(STOP_BOT, "clawd", group, "alice", ["Once", " upon", " a time"])
    assert error is None, error
    try:
        for page in (a, b):
            page.wait(lambda d: [(m["text"], m["cursor"]) for m in clawd_messages(page)] == [("Once upon a time", True)], 10,
                      "the reply streams with a cursor")
        assert [m["stop"] for m in clawd_messages(a)] == [True], "the reply answers alice: her page offers Stop"
        assert [m["stop"] for m in clawd_messages(b)] == [False], "bob's page does not: the reply is not his"

        a.driver.find_element(By.CSS_SELECTOR, '[data-testid="stop-reply"]').click()
        b.wait(lambda d: [(m["end"], m["cursor"], m["stop"]) for m in clawd_messages(b)] == [("cancelled", False, False)], 10,
               "bob sees the reply end as stopped")
        reply = clawd_messages(b)[0]
        assert reply["text"] == "Once upon a time", f"the words so far stay: {reply}"
        assert reply["meta"].endswith("· Stopped"), reply["meta"]
        cancel = b.js("return window.stopBot.cancel")
        assert cancel is not None and cancel["by"] == "alice", f"the bot was told who stopped it: {cancel}"
        b.screenshot("bot-stopped-seen-by-another-member")
    finally:
        b.js("window.stopBot && window.stopBot.close()")
