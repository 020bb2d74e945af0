// The page's WebSocket to the server (/v1/socket): says hello with a token, hands every frame to the app,
// and reconnects with backoff and jitter when the socket drops.

/**
 * The delay before reconnect attempt `attempt` (0-based): 0.5 s doubling to at most 10 s, with up to 30 %
 * jitter so a server restart is not met by every page at once.
 */
export function reconnectDelay(attempt, random = Math.random) {
  const base = Math.min(10_000, 500 * 2 ** attempt);
  return Math.round(base * (0.7 + 0.3 * random()));
}

export class Connection {
  #socket = null;
  #attempt = 0;
  #timer = null;
  #stopped = false;
  #ready = false;

  /**
   * @param {object} options
   * @param {() => Promise<string>} options.token A fresh token for each connection (a demo server's secret
   *   changes when it restarts).
   * @param {(frame: object) => void} options.onFrame Every frame from the server, `welcome` included.
   * @param {(status: 'connecting'|'online'|'offline') => void} options.onStatus
   * @param {string} [options.url] Default: /v1/socket on the page's host.
   */
  constructor({ token, onFrame, onStatus, url }) {
    this.url = url ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/v1/socket`;
    this.tokenSource = token;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
  }

  /** Whether the server welcomed this socket: frames sent now are handled. */
  get isReady() {
    return this.#ready;
  }

  /** Connects, and keeps reconnecting until `stop`. */
  start() {
    this.#stopped = false;
    this.#connect();
  }

  /** Closes the socket for good (switching users). */
  stop() {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#ready = false;
    this.#socket?.close(1000, 'bye');
    this.#socket = null;
  }

  /**
   * Sends a frame if the socket is ready.
   * @returns {boolean} Whether it went out.
   */
  send(frame) {
    if (!this.#ready || this.#socket?.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(JSON.stringify(frame));
    return true;
  }

  async #connect() {
    this.onStatus('connecting');
    let token;
    try {
      token = await this.tokenSource();
    } catch (error) {
      console.warn('Typewire: no token, retrying', error);
      this.#scheduleReconnect();
      return;
    }
    if (this.#stopped) return;
    const socket = new WebSocket(this.url);
    this.#socket = socket;
    socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'hello', token })));
    socket.addEventListener('message', (event) => {
      if (socket !== this.#socket) return;
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame.type === 'welcome') {
        this.#ready = true;
        this.#attempt = 0;
        this.onStatus('online');
      }
      this.onFrame(frame);
    });
    socket.addEventListener('close', () => {
      if (socket !== this.#socket) return;
      const wasReady = this.#ready;
      this.#ready = false;
      this.#socket = null;
      if (this.#stopped) return;
      this.onStatus('offline', wasReady);
      this.#scheduleReconnect();
    });
  }

  #scheduleReconnect() {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#connect(), reconnectDelay(this.#attempt));
    this.#attempt += 1;
  }
}
