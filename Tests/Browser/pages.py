"""The chat page as the browser tests see it: its test hooks (data-testid) and conditions to wait for."""

import pathlib

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def testid(name):
    return (By.CSS_SELECTOR, f'[data-testid="{name}"]')


class ChatPage:
    """One browser session on the demo page."""

    def __init__(self, driver, base_url, screenshots: pathlib.Path):
        self.driver = driver
        self.base_url = base_url
        self.screenshots = screenshots

    # ---- waiting -------------------------------------------------------------------------------

    def wait(self, condition, timeout, message):
        """Polls `condition(driver)` every 20 ms until it is truthy; fails with `message` after `timeout` s."""
        return WebDriverWait(self.driver, timeout, poll_frequency=0.02).until(lambda d: condition(d), message)

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    # ---- signing in and opening a conversation ---------------------------------------------------

    def sign_in(self, user):
        self.driver.get(self.base_url + "/")
        self.wait(lambda d: d.find_elements(*testid(f"pick-{user}")), 10, "the user picker shows")
        self.driver.find_element(*testid(f"pick-{user}")).click()
        self.wait(lambda d: d.find_element(*testid("connection")).get_attribute("data-status") == "online", 10,
                  f"{user}'s page connects")
        return self

    def open(self, conversation):
        selector = f'[data-testid="conversation-item"][data-conversation="{conversation}"]'
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, selector), 10, f"{conversation} is listed")
        self.driver.find_element(By.CSS_SELECTOR, selector).click()
        self.wait(lambda d: d.find_element(By.ID, "chat").get_attribute("data-subscribed") == "true", 10,
                  f"{conversation} opens with its history")
        return self

    # ---- the composer ----------------------------------------------------------------------------

    @property
    def composer(self):
        return self.driver.find_element(*testid("composer"))

    def type(self, text):
        self.composer.send_keys(text)

    def send(self, text):
        self.composer.send_keys(text + "\n")

    # ---- what the page shows ----------------------------------------------------------------------

    def indicator(self):
        """(visible, text, accessibility text) of the typing indicator, read in one round trip."""
        return tuple(self.js(
            "const i = document.querySelector('[data-testid=typing-indicator]');"
            "return [i.dataset.visible === 'true',"
            " document.querySelector('[data-testid=typing-text]').textContent,"
            " document.querySelector('[data-testid=typing-a11y]').textContent];"
        ))

    def wait_for_indicator(self, text, timeout):
        self.wait(lambda d: self.indicator()[:2] == (True, text), timeout,
                  f"the indicator says {text!r} (it shows {self.indicator()!r})")

    def wait_for_no_indicator(self, timeout):
        self.wait(lambda d: not self.indicator()[0], timeout, f"the indicator goes (it shows {self.indicator()!r})")

    def messages(self):
        """Every message bubble: sender, text, streaming, server id."""
        return self.js(
            "return [...document.querySelectorAll('[data-testid=message]')].map(m => ({"
            " sender: m.dataset.sender, text: m.querySelector('[data-testid=message-text]').textContent,"
            " streaming: m.dataset.streaming === 'true', id: m.dataset.messageId || null,"
            " cursor: !!m.querySelector('[data-testid=stream-cursor]')}));"
        )

    def interval(self, name):
        """An interval the server's welcome frame gave the page ("idle-timeout", "refresh-interval"), in seconds."""
        return int(self.driver.find_element(By.ID, "app").get_attribute(f"data-{name}")) / 1000

    def screenshot(self, name):
        """Saves the page once the indicator's 0.2 s fade has settled."""
        self.wait(lambda d: self.js(
            "const i = document.querySelector('[data-testid=typing-indicator]');"
            "return getComputedStyle(i).opacity === (i.dataset.visible === 'true' ? '1' : '0');"
        ), 2, "the indicator's fade settles")
        self.driver.save_screenshot(str(self.screenshots / f"{name}.png"))
