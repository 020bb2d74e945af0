"""Read state between two real browser sessions: a message on a visible page is read and its sender sees
"Seen by"; a hidden tab reads nothing until it shows; the sidebar's unread badge is the server's count; the
sender's newest message says "Sent", then "Delivered" once the other's page received it, then "Seen by"."""

import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from test_presence import direct_with_frank

HIDE = ("Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});"
        "document.dispatchEvent(new Event('visibilitychange'));")
SHOW = "delete document.visibilityState; document.dispatchEvent(new Event('visibilitychange'));"


def seen_under(page, message_id):
    """The "Seen by" line under a message, or None."""
    nodes = page.driver.find_elements(By.CSS_SELECTOR, f'[data-message-id="{message_id}"]')
    return (nodes[0].get_attribute("data-seen") or None) if nodes else None


def progress_under(page, message_id):
    """The ticks' state under a message ("sent", "delivered", "read"), or None."""
    nodes = page.driver.find_elements(By.CSS_SELECTOR, f'[data-message-id="{message_id}"]')
    return (nodes[0].get_attribute("data-progress") or None) if nodes else None


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


def test_a_message_says_sent_then_delivered_when_the_others_page_has_it_then_seen(pages):
    a, b = pages
    conversation = direct_with_frank(a.base_url)
    b.sign_in("bob")  # no page of Frank's is open: no device of his can receive Alice's message
    a.sign_in("alice").open(conversation)
    message = a.send_and_wait_stored(f"Are you coming? ({time.monotonic_ns()})")
    a.wait(lambda d: progress_under(a, message) == "sent", 10, "Alice's message says sent")
    b.sign_in("frank")  # his page follows every listed conversation and receives it, without opening it
    a.wait(lambda d: progress_under(a, message) == "delivered", 10, "once Frank's page has it, it says delivered")
    assert seen_under(a, message) is None, "delivered is not seen"
    b.open(conversation)
    a.wait(lambda d: seen_under(a, message) == "Seen by Frank", 10, "once Frank opens it, it says seen by Frank")
    assert progress_under(a, message) == "read"


def test_mark_unread_on_a_row_brings_the_badge_back_and_opening_it_reads_it_again(pages):
    a, b = pages
    a.sign_in("alice").open("group-six")
    b.sign_in("bob").open("direct-alice-bob")
    message = b.send_and_wait_stored(f"Call me ({time.monotonic_ns()})")
    a.wait(lambda d: badge(a, "direct-alice-bob") == "1", 10, "Alice's sidebar counts Bob's message")
    a.record_sent_frames()

    def reads():
        return [f for f in a.sent_frames() if f["type"] == "read" and f["messageId"] == message]

    a.open("direct-alice-bob")
    a.wait(lambda d: len(reads()) == 1, 10, "Alice reads Bob's message")
    a.open("group-six")
    assert badge(a, "direct-alice-bob") is None, "she read it: nothing unread"

    row = a.driver.find_element(By.CSS_SELECTOR, 'li[data-conversation="direct-alice-bob"]')
    button = row.find_element(By.CSS_SELECTOR, '[data-testid="mark-unread"]')
    ActionChains(a.driver).move_to_element(row).click(button).perform()  # the button shows on hover
    assert [f["messageId"] for f in a.sent_frames() if f["type"] == "markUnread"] == [message]
    a.wait(lambda d: badge(a, "direct-alice-bob") == "1", 10, "marked unread: the server's count is 1 again")
    a.open("direct-alice-bob")
    a.wait(lambda d: len(reads()) == 2, 10, "opened again, she reads it again")
    a.open("group-six")
    a.wait(lambda d: badge(a, "direct-alice-bob") is None, 10, "the server's count after the read: nothing unread")
