// The sender's machine: turns a composer's events into the few frames that keep others' indicators true.
// A port of TypewireCore's TypingEmitter (Sources/TypewireCore/Emitter/TypingEmitter.swift), with time
// injected as milliseconds (`now`): nothing here reads a clock or sets a timer, so node tests every rule.
//
// Rules:
// - The first non-empty text change sends "start" at once. Whitespace-only text counts as empty.
// - While the user counts as typing (a keystroke within idleTimeout), a "refresh" every refreshInterval
//   keeps the server's entry alive: never more often, never less often.
// - No keystroke for idleTimeout sends "stop".
// - Sending the message, clearing the input, leaving the conversation and hiding the tab send "stop" at
//   once, and only if a start was sent. After a stop, the next keystroke starts again at once.
// - While the connection is lost nothing is sent; when it comes back and the user is still typing, a
//   start goes out at once (the server forgot the state when the socket closed).
//
// The shell calls tick(now) when nextDeadline passes and sends what comes out.

/** The composer's events, for `handle`. */
export const Input = Object.freeze({
  /** The input's text changed to `text`. */
  textChanged: (text) => ({ type: 'textChanged', text }),
  /** The user sent the message. */
  messageSent: Object.freeze({ type: 'messageSent' }),
  /** The input was cleared. */
  inputCleared: Object.freeze({ type: 'inputCleared' }),
  /** The user left the conversation. */
  leftConversation: Object.freeze({ type: 'leftConversation' }),
  /** The tab was hidden (or the app went to the background). */
  wentToBackground: Object.freeze({ type: 'wentToBackground' }),
  /** The connection to the server was lost. */
  connectionLost: Object.freeze({ type: 'connectionLost' }),
  /** The connection to the server is back. */
  connectionRestored: Object.freeze({ type: 'connectionRestored' }),
});

/** The activity a frame ("start" | "refresh" | "stop") puts on the wire. */
export const frameActivity = (frame) => (frame === 'stop' ? 'none' : 'typing');

/** Whether the text holds anything but whitespace. */
export const hasVisibleCharacter = (text) => /[^\p{White_Space}]/u.test(text);

export class TypingEmitter {
  #hasText = false;
  #isConnected = true;
  #lastKeystroke = null;
  #lastSent = null;
  #isAnnounced = false;

  /**
   * @param {{refreshInterval?: number, idleTimeout?: number}} [configuration] In milliseconds; default
   *   2 000 and 3 000 (a server's `welcome` frame tells the ones to use).
   */
  constructor({ refreshInterval = 2000, idleTimeout = 3000 } = {}) {
    this.refreshInterval = refreshInterval;
    this.idleTimeout = idleTimeout;
  }

  /** Whether a start was sent and no stop since: what the server believes. */
  get isAnnounced() {
    return this.#isAnnounced;
  }

  /**
   * Handles one event of the composer.
   * @param {{type: string, text?: string}} input One of `Input`.
   * @param {number} now When it happened, in milliseconds.
   * @returns {'start'|'refresh'|'stop'|null} The frame to send, if any.
   */
  handle(input, now) {
    switch (input.type) {
      case 'textChanged':
        if (!hasVisibleCharacter(input.text)) {
          this.#hasText = false;
          return this.#announceStop();
        }
        this.#hasText = true;
        this.#lastKeystroke = now;
        return this.#isConnected && !this.#isAnnounced ? this.#announceStart(now) : null;
      case 'messageSent':
      case 'inputCleared':
        this.#hasText = false;
        return this.#announceStop();
      case 'leftConversation':
      case 'wentToBackground':
        return this.#announceStop();
      case 'connectionLost':
        this.#isConnected = false;
        this.#isAnnounced = false;
        return null;
      case 'connectionRestored':
        this.#isConnected = true;
        if (!this.#hasText || this.#lastKeystroke === null || now >= this.#lastKeystroke + this.idleTimeout) return null;
        return this.#announceStart(now);
      default:
        throw new TypeError(`Unknown emitter input '${input.type}'.`);
    }
  }

  /** When the emitter next needs `tick`: the next refresh or the idle stop, whichever comes first; null when idle. */
  get nextDeadline() {
    if (!this.#isAnnounced || this.#lastKeystroke === null || this.#lastSent === null) return null;
    return Math.min(this.#lastKeystroke + this.idleTimeout, this.#lastSent + this.refreshInterval);
  }

  /**
   * Lets time pass: sends the idle stop or a due refresh. Calling early or late is harmless.
   * @param {number} now In milliseconds.
   * @returns {'refresh'|'stop'|null}
   */
  tick(now) {
    if (!this.#isAnnounced || this.#lastKeystroke === null) return null;
    if (now >= this.#lastKeystroke + this.idleTimeout) return this.#announceStop();
    if (this.#lastSent !== null && now >= this.#lastSent + this.refreshInterval) {
      this.#lastSent = now;
      return 'refresh';
    }
    return null;
  }

  #announceStart(now) {
    this.#isAnnounced = true;
    this.#lastSent = now;
    return 'start';
  }

  #announceStop() {
    if (!this.#isAnnounced) return null;
    this.#isAnnounced = false;
    return 'stop';
  }
}
