"""What the page decides on its own, end to end: the stop it sends when its tab is hidden, and the language
`?lang=` picks for the indicator's words."""


def test_a_hidden_tab_stops_its_typing_at_once(minute_pages):
    # On the server with a minute's ttl and idle timeout: what clears Alice's typing is the page's stop.
    a, b = minute_pages
    a.sign_in("alice").open("direct-alice-bob")
    b.sign_in("bob").open("direct-alice-bob")
    a.type("Back in a")
    b.wait_for_indicator("Alice is typing…", 10)
    # The tab goes to the background, as the browser tells a page (headless Chromium's tab is never hidden).
    a.js("Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});"
         "document.dispatchEvent(new Event('visibilitychange'));")
    try:
        b.wait_for_no_indicator(10)
    finally:
        a.js("delete document.visibilityState;")
    assert a.composer.get_attribute("value") == "Back in a", "the draft stays: only the typing stopped"


def test_lang_picks_the_indicators_language(pages):
    a, b = pages
    a.sign_in("alice").open("direct-alice-bob")
    b.sign_in("bob", "?lang=es").open("direct-alice-bob")
    a.type("Hola")
    b.wait_for_indicator("Alice está escribiendo…", 10)
    a.type("\n")  # send, so the next test starts from an idle composer
    b.wait_for_no_indicator(10)
