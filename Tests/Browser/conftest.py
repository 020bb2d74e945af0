"""Fixtures of the browser tests: the real `typewire serve --demo` and headless Chromium sessions.

The server is the built binary (`.build/debug/typewire`, or $TYPEWIRE_BIN) on a free port with a fresh
SQLite file; the browsers are Debian's chromium driven by chromium-driver through selenium. Screenshots
and the server's log go to .artifacts/ (ignored by git).
"""

import os
import pathlib
import shutil
import sys
import tempfile

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

from pages import ChatPage

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
import typewire_server  # noqa: E402  (the shared harness, found through the path above)

ARTIFACTS = ROOT / ".artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"


def _demo_server(name, *extra):
    """Runs `typewire serve --demo --port 0 EXTRA` on a fresh SQLite file; yields its base URL."""
    folder = tempfile.mkdtemp(prefix=f"typewire-{name}-")
    arguments = ["serve", "--demo", *extra, "--port", "0", "--sqlite", f"{folder}/typewire.sqlite", "--public", ROOT / "Public"]
    try:
        with typewire_server.running_server(arguments, ARTIFACTS / f"{name}.log") as running:
            yield running.url
    except RuntimeError as error:
        pytest.fail(str(error))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def server():
    """The base URL of a running `typewire serve --demo --port 0`; stopped with SIGTERM at the end.

    With $TYPEWIRE_TEST_SERVER (e.g. http://127.0.0.1:8080) the tests use that server instead.
    """
    if os.environ.get("TYPEWIRE_TEST_SERVER"):
        yield os.environ["TYPEWIRE_TEST_SERVER"].rstrip("/")
        return
    yield from _demo_server("server")


# A ttl and an idle timeout of a minute, for tests that claim a stop: only the stop can clear typing within
# their bounds, never expiry (4.8 s by default) or the composer's idle stop (3 s).
MINUTE = ("--activity-ttl", "60000", "--idle-timeout", "60000")


@pytest.fixture(scope="session")
def typing_only_server():
    """The base URL of a running `typewire serve --demo --no-messages --port 0` (typing-only mode), with a
    minute's ttl and idle timeout."""
    yield from _demo_server("server-typing-only", "--no-messages", *MINUTE)


@pytest.fixture(scope="session")
def minute_server():
    """The base URL of a running `typewire serve --demo --port 0` with a minute's ttl and idle timeout."""
    yield from _demo_server("server-minute", *MINUTE)


def _chromium():
    options = Options()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1200,820",
        "--lang=en-US",
        "--force-device-scale-factor=1",
        # Two sessions side by side must both count as visible, with timers on time.
        "--disable-background-timer-throttling",
        "--disable-backgrounding-occluded-windows",
        "--disable-renderer-backgrounding",
    ):
        options.add_argument(argument)
    # The page's console (errors such as net::ERR_NETWORK_CHANGED), kept for a failure's message (pages.py).
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # A driver path of our own: selenium never tries to download one (the tests run offline).
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(options=options, service=Service(executable_path=driver_path))


@pytest.fixture(scope="session")
def browsers():
    """Two independent browser sessions, opened once for the whole run."""
    sessions = [_chromium(), _chromium()]
    yield sessions
    for session in sessions:
        session.quit()


@pytest.fixture()
def pages(server, browsers):
    """Two chat pages, A and B, each on a fresh load (a fresh socket) of the demo."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return [ChatPage(driver, server, SCREENSHOTS) for driver in browsers]


@pytest.fixture()
def minute_pages(minute_server, browsers):
    """Two chat pages on the server whose typing ends only by a stop (`minute_server`)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return [ChatPage(driver, minute_server, SCREENSHOTS) for driver in browsers]


@pytest.fixture()
def typing_only_pages(typing_only_server, browsers):
    """Two chat pages on the typing-only server."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return [ChatPage(driver, typing_only_server, SCREENSHOTS) for driver in browsers]
