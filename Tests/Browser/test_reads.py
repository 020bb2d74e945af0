"""Read state between two real browser sessions: a message on a visible page is read and its sender sees
"Seen by"; a hidden tab reads nothing until it shows; the sidebar's unread badge is the server's count."""

import time

from selenium.webdriver.common.by import By

HIDE = ("Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});"
        "document.dispatchEvent(new Event('visibilitychange'));")
SHOW = "delete document.visibilityState; document.dispatchEvent(new Event('visibilitychange'));"


def seen_under(page, message_id):
    """The "Seen by" line under a message, or None."""
    nodes = page.driver.find_elements(By.CSS_SELECTOR, f'[data-message-id="{message_id}"]')
    return (nodes[0].get_attribute("data-seen") or None) if nodes else None


def badge(page, conversation):
    """The sidebar's unread count of a conversation, or None without a badge."""
    badges = page.driver.find_elements(By.CSS_SELECTOR, f'[data-conversation="{conversation}"] .unread')
    return badges[0].text if badges else None


def test_a_message_on_a_visible_page_is_read_and_its_sender_sees_seen_by(pages):
    a, b = pages
    a.sign_in("alice").open("direct-alice-bob")
    b.sign_in("bob").open("direct-alice-bob")
    message = b.send_and_wait_stored(f"Dinner at 8? ({time.monotonic_ns()})")
    b.wait(lambda d: seen_under(b, message) == "Seen by Alice", 10, "Bob sees that Alice read it")


def test_a_hidden_tab_reads_nothing_until_it_shows_and_the_badge_is_the_servers(pages):
    a, b = pages
    a.sign_in("alice").open("group-six")
    b.sign_in("bob").open("direct-alice-bob")
    message = b.send_and_wait_stored(f"Still up? ({time.monotonic_ns()})")
    a.wait(lambda d: badge(a, "direct-alice-bob") == "1", 10, "Alice's sidebar counts Bob's message")

    # The tab goes to the background as Alice opens the conversation, as the browser tells a page (headless
    # Chromium's tab is never hidden).
    a.record_sent_frames()
    a.js(HIDE)
    a.open("direct-alice-bob")
    try:
        # Three times the second a visible page takes to read it: what is checked is that nothing happens.
        time.sleep(3)
        reads = [f for f in a.sent_frames() if f["type"] == "read"]
        assert reads == [] and seen_under(b, message) is None, f"a hidden tab read the message: {reads}"
    finally:
        a.js(SHOW)
    b.wait(lambda d: seen_under(b, message) == "Seen by Alice", 10, "once the tab shows, Alice reads it")
    assert [f["messageId"] for f in a.sent_frames() if f["type"] == "read"] == [message]
    a.open("group-six")
    assert badge(a, "direct-alice-bob") is None, "the server's count after the read: nothing unread"
