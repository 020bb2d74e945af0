"""Alice's client in a process of its own, for faults that hit a whole process or its network.

    python3 alice_helper.py WS_URL TOKEN CONVERSATION REFRESH_MS

Says hello, subscribes, sends `typing`, prints "ready", then keeps typing like a composer (a refresh
every REFRESH_MS; 0 sends none) while a thread reads every frame (answering the server's pings), until
it is killed or its socket closes.
"""

import json
import sys
import threading

import websocket


def main():
    url, token, conversation, refresh_ms = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    ws = websocket.create_connection(url, timeout=10)

    def expect(kind):
        while True:
            frame = json.loads(ws.recv())
            if frame["type"] == kind:
                return frame
            if frame["type"] == "error":
                raise SystemExit(f"the server refused: {frame}")

    ws.send(json.dumps({"type": "hello", "token": token}))
    expect("welcome")
    ws.send(json.dumps({"type": "subscribe", "conversation": conversation}))
    expect("subscribed")
    typing = json.dumps({"type": "activity", "conversation": conversation, "activity": "typing"})
    ws.send(typing)
    ws.settimeout(None)
    closed = threading.Event()

    def read():
        try:
            while ws.recv_data_frame()[0] != websocket.ABNF.OPCODE_CLOSE:
                pass
        except Exception:
            pass
        closed.set()

    threading.Thread(target=read, daemon=True).start()
    print("ready", flush=True)
    while not closed.wait(refresh_ms / 1000 if refresh_ms > 0 else None):
        try:
            ws.send(typing)
        except Exception:
            break


if __name__ == "__main__":
    main()
