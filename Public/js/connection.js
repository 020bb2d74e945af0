// The page's WebSocket to the server (/v1/socket): says hello with a token, hands the live socket a fresh
// token ahead of the old one's expiry (`refresh`), hands every frame to the app, and reconnects with backoff
// and jitter when the socket drops.

/**
 * The delay before reconnect attempt `attempt` (0-based): 0.5 s doubling to at most 10 s, with up to 30 %
 * jitter so a server restart is not met by every page at once.
 */
export function reconnectDelay(attempt, random = Math.random) {
  const base = Math.min(10_000, 500 * 2 ** attempt);
  return Math.round(base * (0.7 + 0.3 * random()));
}

/**
 * The expiry (`exp`) a JWT claims, in milliseconds since 1970, read without checking its signature (the
 * server checks it); null for a token that is not a JWT or names no expiry.
 */
export function tokenExpiry(token) {
  const parts = String(token).split('.');
  if (parts.length !== 3) return null;
  try {
    const base64 = parts[1].replaceAll('-', '+').replaceAll('_', '/');
    const claims = JSON.parse(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)));
    return typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * When to refresh a token that expires at `expiry` (milliseconds), seen at `now`: the Swift client's rule
 * (`TokenRefresh`): a quarter of its remaining life ahead of the expiry (1 s to 5 minutes), and up to a
 * tenth of that life earlier at random (at most 30 s). Null with 2 s or less to live: reconnect instead.
 */
export function refreshTime(expiry, now, random = Math.random) {
  const remaining = expiry - now;
  if (remaining <= 2000) return null;
  const lead = Math.min(300_000, Math.max(1000, remaining / 4));
  return expiry - lead - random() * Math.min(30_000, remaining / 10);
}

export class Connection {
  #socket = null;
  #token = null;
  #offered = null;
  #refreshTimer = null;
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
    clearTimeout(this.#refreshTimer);
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
    this.#token = token;
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
        this.#scheduleRefresh();
      } else if (frame.type === 'refreshed') {
        if (this.#offered) this.#token = this.#offered;
        this.#offered = null;
        return this.#scheduleRefresh();
      } else if (frame.type === 'error' && frame.request === 'refresh') {
        this.#offered = null;  // past the handshake budget: try again later; a refused token: reconnect at expiry
        if (frame.code === 'rate_limited') this.#scheduleRefresh(5000);
        return;
      }
      this.onFrame(frame);
    });
    socket.addEventListener('close', () => {
      if (socket !== this.#socket) return;
      clearTimeout(this.#refreshTimer);
      const wasReady = this.#ready;
      this.#ready = false;
      this.#socket = null;
      if (this.#stopped) return;
      this.onStatus('offline', wasReady);
      this.#scheduleReconnect();
    });
  }

  /** Waits until the socket's token is due for a refresh (or `after` ms), then offers a fresh one. */
  #scheduleRefresh(after) {
    clearTimeout(this.#refreshTimer);
    const expiry = tokenExpiry(this.#token);
    const due = expiry === null ? null : refreshTime(expiry, Date.now());
    if (due === null) return;
    const wait = after === undefined ? due - Date.now() : Math.min(after, expiry - 1000 - Date.now());
    this.#refreshTimer = setTimeout(async () => {
      try {
        const fresh = await this.tokenSource();
        if (!this.#ready) return;
        this.#offered = fresh;
        this.send({ type: 'refresh', token: fresh });
      } catch (error) {
        console.warn('Typewire: no fresh token, trying again', error);
        this.#scheduleRefresh(5000);
      }
    }, Math.max(0, wait));
  }

  #scheduleReconnect() {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#connect(), reconnectDelay(this.#attempt));
    this.#attempt += 1;
  }
}
