"""The web demo on a typing-only server (`typewire serve --demo --no-messages`)."""

from selenium.webdriver.common.by import By


def test_sending_on_a_typing_only_server_stops_the_typing_and_stores_nothing(typing_only_pages):
    a, b = typing_only_pages
    a.sign_in("alice").open("direct-alice-bob")
    b.sign_in("bob").open("direct-alice-bob")
    assert a.driver.find_element(By.ID, "app").get_attribute("data-stores-messages") == "false"
    assert "keeps no messages" in a.composer.get_attribute("placeholder")

    a.type("On my way")
    b.wait_for_indicator("Alice is typing…", 10)
    a.type("\n")
    # The server clears no typing here: the page's own stop frame must. The ttl and the idle timeout are a
    # minute (conftest.MINUTE): an indicator gone within 10 s went with the stop.
    b.wait_for_no_indicator(10)
    assert a.composer.get_attribute("value") == "", "the composer is cleared, as after a send"
    assert b.messages() == [] and a.messages() == [], "no message is shown or stored"
