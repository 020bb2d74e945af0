"""Static files (the web demo's), asked for as an attacker would: raw paths and ranges no browser sends.

Runs against the built `typewire serve --demo` (Tests/Support/typewire_server.py starts it).
"""
import http.client
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "Support"))
import typewire_server  # noqa: E402  (the shared harness, found through the path above)


def get(server, path, headers=None):
    connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})  # the path is sent exactly as given
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_a_double_slash_is_not_a_redirect_to_another_host(tmp_path):
    arguments = ["serve", "--demo", "--port", "0", "--sqlite", tmp_path / "typewire.sqlite", "--public", ROOT / "Public"]
    with typewire_server.running_server(arguments, ROOT / ".artifacts" / "abuse" / "static-files.log") as server:
        status, headers, _ = get(server, "//js")
        assert status == 404, (status, headers)
        assert "Location" not in headers and "location" not in headers
        # The real folder still works.
        status, _, body = get(server, "/js/app.js")
        assert status == 200 and body


def test_a_range_past_the_end_gets_the_whole_file(tmp_path):
    arguments = ["serve", "--demo", "--port", "0", "--sqlite", tmp_path / "typewire.sqlite", "--public", ROOT / "Public"]
    with typewire_server.running_server(arguments, ROOT / ".artifacts" / "abuse" / "static-files.log") as server:
        whole = (ROOT / "Public" / "index.html").read_bytes()
        status, headers, body = get(server, "/index.html", {"Range": "bytes=999999-"})
        assert status == 200, (status, headers)
        assert int(headers.get("Content-Length", headers.get("content-length", "-1"))) == len(whole)
        assert body == whole


def test_the_demos_files_may_not_be_sniffed_framed_or_run_foreign_scripts(tmp_path):
    arguments = ["serve", "--demo", "--port", "0", "--sqlite", tmp_path / "typewire.sqlite", "--public", ROOT / "Public"]
    with typewire_server.running_server(arguments, ROOT / ".artifacts" / "abuse" / "static-files.log") as server:
        for path in ["/", "/js/app.js", "/style.css"]:
            _, headers, _ = get(server, path)
            lowered = {name.lower(): value for name, value in headers.items()}
            assert lowered.get("x-content-type-options") == "nosniff", (path, headers)
            policy = lowered.get("content-security-policy", "")
            assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy, (path, headers)


def test_metrics_ask_for_the_key_when_one_is_set(tmp_path):
    key = "metrics-key-0123456789abcdefghijklmnop"
    arguments = ["serve", "--demo", "--port", "0", "--sqlite", tmp_path / "typewire.sqlite", "--public", ROOT / "Public",
                 "--metrics-key", key]
    with typewire_server.running_server(arguments, ROOT / ".artifacts" / "abuse" / "static-files.log") as server:
        for headers in [{}, {"Authorization": "Bearer wrong"}, {"Authorization": key}]:
            status, _, _ = get(server, "/metrics", headers)
            assert status == 401, (headers, status)
        status, _, body = get(server, "/metrics", {"Authorization": f"Bearer {key}"})
        assert status == 200 and b"typewire_sockets" in body
    # Without a key (the default), anyone who reaches the server reads them.
    with typewire_server.running_server(arguments[:-2], ROOT / ".artifacts" / "abuse" / "static-files.log") as server:
        assert get(server, "/metrics")[0] == 200
