"""The chat page as the browser tests see it: its test hooks (data-testid) and conditions to wait for."""

import pathlib

from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

HERE = pathlib.Path(__file__).resolve().parent


def protocol_script(name):
    """A script of this folder that speaks the protocol over sockets of its own, after protocol_socket.js."""
    return (HERE / "protocol_socket.js").read_text() + "\n" + (HERE / name).read_text()


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
        """Polls `condition(driver)` every 20 ms until it is truthy; fails with `message` after `timeout` s,
        saving a screenshot and adding what the page had loaded (its state and each resource's status)."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.02).until(lambda d: condition(d), message)
        except TimeoutException as timeout_error:
            raise TimeoutException(f"{message}; the page then: {self.describe()}") from timeout_error

    def describe(self):
        """The page's ready state, resources and console, for a failure's message; a screenshot in the
        screenshots folder."""
        try:
            self.screenshots.mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(self.screenshots / "timed-out.png"))
            state = self.js(
                "return JSON.stringify({ readyState: document.readyState, url: location.href,"
                " resources: performance.getEntriesByType('resource').map((r) =>"
                " [r.name.replace(location.origin, ''), r.responseStatus, Math.round(r.duration)]) })")
        except Exception as error:  # the page itself may be what failed
            state = f"(not readable: {error})"
        try:
            console = [f"{entry['level']} {entry['message'][:300]}" for entry in self.driver.get_log("browser")][-20:]
        except Exception as error:
            console = [f"(no console log: {error})"]
        return f"{state}; console: {console}"

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    # ---- signing in and opening a conversation ---------------------------------------------------

    def sign_in(self, user, query=""):
        """Loads the demo (with `query`, e.g. `?lang=es`) and picks `user`."""
        self.driver.get(self.base_url + "/" + query)
        # Liveness bounds: the first page of a run loads beside the fault tests' lane on a loaded 2-core machine
        # (a CI run's first page showed no picker within 10 s, its scripts all loaded).
        self.wait(lambda d: d.find_elements(*testid(f"pick-{user}")), 30, "the user picker shows")
        self.driver.find_element(*testid(f"pick-{user}")).click()
        self.wait(lambda d: d.find_element(*testid("connection")).get_attribute("data-status") == "online", 30,
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

    def send_and_wait_stored(self, text, timeout=10):
        """Sends a message in the main timeline and returns its id once the server stored it."""
        self.send(text)
        return self.wait_for_message_id(text, timeout)

    def wait_for_message_id(self, text, timeout=10):
        """The id of the main timeline's message with this text, once the page knows it as stored."""
        return self.wait(lambda d: next((m["id"] for m in self.messages() if m["text"] == text and m["id"]), None), timeout,
                         f"the message {text!r} shows as stored (the page shows {self.messages()!r})")

    # ---- the thread panel ----------------------------------------------------------------------------

    def open_thread(self, message_id):
        """Clicks the message's "Reply in thread" button and waits for the panel with the thread's history."""
        selector = f'[data-testid="messages"] [data-message-id="{message_id}"] [data-testid="reply-in-thread"]'
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, selector), 10, f"message {message_id} offers a reply in thread")
        button = self.driver.find_element(By.CSS_SELECTOR, selector)
        ActionChains(self.driver).move_to_element(button).click(button).perform()  # the button shows on hover
        self.wait(lambda d: self.thread_panel() == {"open": True, "status": "done", "parent": message_id}, 10,
                  f"the thread of {message_id} opens with its replies (the panel: {self.thread_panel()!r})")
        return self

    def close_thread(self):
        self.driver.find_element(*testid("thread-close")).click()
        self.wait(lambda d: not self.thread_panel()["open"], 10, "the thread panel closes")

    def thread_panel(self):
        """Whether the panel is open, its history's status and the parent message's id."""
        return self.js(
            "const p = document.querySelector('[data-testid=thread-panel]');"
            "const parent = p.querySelector('[data-testid=thread-parent] [data-testid=message]');"
            "return {open: p.dataset.open === 'true', status: p.dataset.status || null,"
            " parent: parent ? parent.dataset.messageId || null : null};"
        )

    @property
    def thread_composer(self):
        return self.driver.find_element(*testid("thread-composer"))

    def type_reply(self, text):
        self.thread_composer.send_keys(text)

    def thread_messages(self):
        """The thread panel's replies, as messages() has them."""
        return self.messages("thread-messages")

    def thread_indicator(self):
        """(visible, text, accessibility text) of the thread panel's typing indicator."""
        return self.indicator("thread-")

    def wait_for_thread_indicator(self, text, timeout):
        self.wait(lambda d: self.thread_indicator()[:2] == (True, text), timeout,
                  f"the thread's indicator says {text!r} (it shows {self.thread_indicator()!r})")

    def wait_for_no_thread_indicator(self, timeout):
        self.wait(lambda d: not self.thread_indicator()[0], timeout,
                  f"the thread's indicator goes (it shows {self.thread_indicator()!r})")

    def thread_line(self, message_id):
        """Under a main-timeline message: (its reply count's text or None, its replying text or None)."""
        return tuple(self.js(
            "const m = document.querySelector(`[data-testid=messages] [data-message-id=\"${arguments[0]}\"]`);"
            "const count = m && m.querySelector('[data-testid=thread-replies]');"
            "const replying = m && m.querySelector('[data-testid=message-replying]');"
            "return [count && !count.hidden ? count.textContent : null,"
            " replying && !replying.hidden ? replying.querySelector('[data-testid=message-replying-text]').textContent : null];",
            message_id,
        ))

    def wait_for_replying(self, message_id, text, timeout):
        """Waits until the message's replying line says `text` (None: it shows none)."""
        self.wait(lambda d: self.thread_line(message_id)[1] == text, timeout,
                  f"message {message_id} shows replying {text!r} (it shows {self.thread_line(message_id)!r})")

    # ---- the frames the page sends -------------------------------------------------------------------

    def record_sent_frames(self):
        """From now on, keeps every frame the page's sockets send (read them with sent_frames())."""
        self.js(
            "window.sentFrames = [];"
            "if (!WebSocket.prototype.sendUnrecorded) {"
            "  WebSocket.prototype.sendUnrecorded = WebSocket.prototype.send;"
            "  WebSocket.prototype.send = function (data) {"
            "    try { window.sentFrames?.push(JSON.parse(data)); } catch {}"
            "    return this.sendUnrecorded(data);"
            "  };"
            "}"
        )

    def sent_frames(self):
        return self.js("return window.sentFrames")

    # ---- what the page shows ----------------------------------------------------------------------

    def indicator(self, prefix=""):
        """(visible, text, accessibility text) of the main timeline's typing indicator (with prefix "thread-",
        the thread panel's), read in one round trip."""
        return tuple(self.js(
            "const p = arguments[0];"
            "const i = document.querySelector(`[data-testid=${p}typing-indicator]`);"
            "return [i.dataset.visible === 'true',"
            " document.querySelector(`[data-testid=${p}typing-text]`).textContent,"
            " document.querySelector(`[data-testid=${p}typing-a11y]`).textContent];",
            prefix,
        ))

    def wait_for_indicator(self, text, timeout):
        self.wait(lambda d: self.indicator()[:2] == (True, text), timeout,
                  f"the indicator says {text!r} (it shows {self.indicator()!r})")

    def wait_for_no_indicator(self, timeout):
        self.wait(lambda d: not self.indicator()[0], timeout, f"the indicator goes (it shows {self.indicator()!r})")

    def messages(self, container="messages"):
        """Every message bubble of the main timeline (or of another container): sender, text, streaming, server id,
        cursor, how a bot's reply ended (`end`), its meta line and whether it offers a Stop button."""
        return self.js(
            "return [...document.querySelectorAll(`[data-testid=${arguments[0]}] [data-testid=message]`)].map(m => ({"
            " sender: m.dataset.sender, text: m.querySelector('[data-testid=message-text]').textContent,"
            " streaming: m.dataset.streaming === 'true', id: m.dataset.messageId || null,"
            " cursor: !!m.querySelector('[data-testid=stream-cursor]'), end: m.dataset.end || null,"
            " meta: m.querySelector('.message-meta').textContent, stop: !!m.querySelector('[data-testid=stop-reply]')}));",
            container,
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
