"""Presence in the header between two real browser sessions: the other member of a direct conversation is
"online" while their page is, then "last seen just now" once it signs out, in the page's language.

Frank, whom no other browser test signs in: a page the sessions left earlier may keep its socket open until
the ping timeout, and a user with one is online."""

import json
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By


def subtitle(page):
    return page.driver.find_element(By.CSS_SELECTOR, '[data-testid="chat-subtitle"]').text


def direct_with_frank(base_url):
    """The direct conversation of alice and frank, made by alice through the REST API before the pages sign
    in (or found, if a run made it already); returns its id."""
    with urllib.request.urlopen(f"{base_url}/v1/demo/token?user=alice", timeout=10) as answer:
        headers = {"Authorization": f"Bearer {json.load(answer)['token']}", "Content-Type": "application/json"}
    body = json.dumps({"kind": "direct", "members": ["frank"]}).encode()
    try:
        request = urllib.request.Request(f"{base_url}/v1/conversations", data=body, method="POST", headers=headers)
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)["id"]
    except urllib.error.HTTPError:
        with urllib.request.urlopen(urllib.request.Request(f"{base_url}/v1/conversations", headers=headers), timeout=10) as answer:
            listed = json.load(answer)["conversations"]
        return next(c["id"] for c in listed if c["kind"] == "direct" and "frank" in json.dumps(c))


def test_the_header_says_online_then_when_the_other_member_was_last_seen(pages):
    a, b = pages
    conversation = direct_with_frank(a.base_url)
    a.sign_in("alice", "?lang=es").open(conversation)
    b.sign_in("frank").open(conversation)
    a.wait(lambda d: subtitle(a) == "en línea", 10, "Alice's header says Frank is online, in Spanish")
    b.js("document.getElementById('switch-user').click()")  # he signs out: his socket closes
    # A last seen is to the minute: a moment, or a minute if his minute ended meanwhile.
    said = ("última vez hace un momento", "última vez hace 1 minuto")
    try:
        a.wait(lambda d: subtitle(a) in said, 15, "Alice's header says when Frank was last seen")
    except Exception as error:
        raise AssertionError(f"the header says {subtitle(a)!r}") from error
