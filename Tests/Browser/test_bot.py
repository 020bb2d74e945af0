"""The bot conversation: "Clawd is thinking…", then a reply streamed word by word with a blinking cursor,
then idle. The bot is the server's own demo bot (`typewire serve --demo`)."""

import pathlib

HERE = pathlib.Path(__file__).resolve().parent
RECORDER = (HERE / "recorder.js").read_text()


def clawd_messages(page):
    return [m for m in page.messages() if m["sender"] == "clawd"]


def test_the_bot_thinks_then_streams_its_reply_then_goes_idle(pages):
    a, _ = pages
    a.sign_in("alice").open("bot-clawd")
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
