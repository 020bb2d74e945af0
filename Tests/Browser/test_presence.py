"""Presence in the header between two real browser sessions: the other member of a direct conversation is
"online" while their page is, then "last seen just now" once it signs out, in the page's language."""

from selenium.webdriver.common.by import By


def subtitle(page):
    return page.driver.find_element(By.CSS_SELECTOR, '[data-testid="chat-subtitle"]').text


def test_the_header_says_online_then_when_the_other_member_was_last_seen(pages):
    a, b = pages
    a.sign_in("alice", "?lang=es").open("direct-alice-bob")
    b.sign_in("bob").open("direct-alice-bob")
    a.wait(lambda d: subtitle(a) == "en línea", 10, "Alice's header says Bob is online, in Spanish")
    b.js("document.getElementById('switch-user').click()")  # he signs out: his socket closes
    # Within the presence grace (5 s) if the page's close said it goes away, and the delivery's bound.
    a.wait(lambda d: subtitle(a) == "última vez hace un momento", 15, "Alice's header says when Bob was last seen")
