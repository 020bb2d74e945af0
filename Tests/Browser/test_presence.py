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


# Keeps the page's sockets where the test can close them, and sends new ones to a closed port while
# `__typewireRefuse` is set: the page stays away from the server as long as the test says.
HOLD_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__typewireSockets = [];
  window.__typewireRefuse = false;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(window.__typewireRefuse ? 'ws://127.0.0.1:9/' : url, protocols);
      window.__typewireSockets.push(this);
    }
  };
})();
"""


def header_dot(page, user):
    dots = page.driver.find_elements(By.CSS_SELECTOR, f'#chat-avatar [data-testid="presence-{user}"]')
    return dots[0].get_attribute("data-online") if dots else None


def test_a_page_away_from_the_server_shows_no_one_online(pages):
    a, b = pages
    conversation = direct_with_frank(a.base_url)
    held = a.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOLD_SOCKETS})
    try:
        a.sign_in("alice").open(conversation)
        b.sign_in("frank").open(conversation)
        a.wait(lambda d: subtitle(a) == "online" and header_dot(a, "frank") == "true", 10, "Alice's header says Frank is online")
        a.js("window.__typewireRefuse = true; for (const socket of window.__typewireSockets) socket.close()")
        a.wait(lambda d: a.js("return document.querySelector('[data-testid=connection]').dataset.status") == "offline", 10,
               "Alice's page is offline")
        assert subtitle(a) != "online" and header_dot(a, "frank") == "false", \
            f"away from the server, Frank is not shown online: {subtitle(a)!r}, dot {header_dot(a, 'frank')!r}"
        a.js("window.__typewireRefuse = false")
        a.wait(lambda d: subtitle(a) == "online" and header_dot(a, "frank") == "true", 30, "back: the next subscribed says he is online")
    finally:
        a.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": held["identifier"]})
