// The thread open in the panel, on the shell's side: its own TypingRoster (made for the thread and fed the
// conversation's `activity` frames, so it shows this thread's typers only), its own TypingEmitter (whose
// frames carry `thread`), and the timers that drive them. app.js hands it the conversation's frames and the
// panel composer's events; the panel (thread-panel.js) draws what it decides.
import { TypingEmitter, Input, frameActivity } from './emitter.js';
import { TypingRoster } from './roster.js';

const PAGE_TIMERS = { set: (run, ms) => setTimeout(run, ms), clear: (timer) => clearTimeout(timer) };

export class OpenThread {
  #emitterTimer = null;
  #rosterTimer = null;

  /**
   * @param {object} options
   * @param {object} options.conversation The app's conversation state (its participants, its main roster's
   *   offline users and its last `activity` frame start the thread's roster).
   * @param {object} options.parent The parent message's item in the main timeline.
   * @param {import('./timeline.js').Timeline} options.replies The thread's replies.
   * @param {string} options.me The current user.
   * @param {{refreshInterval: number, idleTimeout: number}} options.config The server's intervals.
   * @param {(frame: object) => void} options.send Puts a frame on the wire (dropped while offline).
   * @param {() => number} options.now The page's clock (milliseconds).
   * @param {(typers: Array<object>) => void} options.showTypers Draws the thread's indicator.
   * @param {{set: (run: () => void, ms: number) => any, clear: (timer: any) => void}} [options.timers] The page's
   *   setTimeout and clearTimeout (a test's own clock otherwise).
   */
  constructor({ conversation, parent, replies, me, config, send, now, showTypers, timers = PAGE_TIMERS }) {
    Object.assign(this, { conversation, parent, replies, send, now, showTypers, timers });
    this.parentId = parent.id;
    this.roster = new TypingRoster(me, conversation.participants.keys(), parent.id);
    for (const user of conversation.roster.offlineUsers) this.roster.setOnline(false, user);
    if (conversation.lastActivity) this.roster.apply(conversation.lastActivity.frame, conversation.lastActivity.at);
    this.emitter = new TypingEmitter(config);
  }

  /** An event of the panel's composer (one of emitter.js's `Input`): the frame it calls for goes out. */
  handle(input) {
    this.#sendTyping(this.emitter.handle(input, this.now()));
  }

  /**
   * A reply from the panel's composer: shown at once as a pending send, and the typing ends with it (no stop
   * frame: the server clears the sender's typing in the thread before it fans the reply out).
   * @returns {object} The `send` frame to put on the wire.
   */
  reply({ clientMessageId, sender, senderName, text, sentAt }) {
    this.replies.addPending({ clientMessageId, sender, senderName, text, sentAt });
    this.emitter.handle(Input.messageSent, this.now());
    this.#sendTyping(null);
    return { type: 'send', conversation: this.conversation.id, clientMessageId, text, thread: this.parentId };
  }

  /** New intervals from the server's `welcome`, taken unless a start is out. */
  configure(config) {
    if (!this.emitter.isAnnounced) this.emitter = new TypingEmitter(config);
  }

  /** Shows who is active in the thread now, and draws again when the next entry expires. */
  renderIndicator() {
    this.timers.clear(this.#rosterTimer);
    const at = this.now();
    this.roster.removeExpired(at);
    // A bot whose reply streams into the thread shows its cursor instead.
    const streaming = this.replies.streamingUsers();
    this.showTypers(this.roster.typers(at).filter((typer) => !streaming.has(typer.userID)));
    const deadline = this.roster.nextDeadline;
    if (deadline !== null) this.#rosterTimer = this.timers.set(() => this.renderIndicator(), Math.max(0, deadline - this.now()) + 1);
  }

  /** Closing the panel: the composer's stop goes out at once, and the timers end. */
  close() {
    this.handle(Input.leftConversation);
    this.timers.clear(this.#emitterTimer);
    this.timers.clear(this.#rosterTimer);
  }

  #sendTyping(frame) {
    if (frame) {
      this.send({ type: 'activity', conversation: this.conversation.id, thread: this.parentId, activity: frameActivity(frame) });
    }
    this.timers.clear(this.#emitterTimer);
    const deadline = this.emitter.nextDeadline;
    if (deadline === null) return;
    this.#emitterTimer = this.timers.set(() => this.#sendTyping(this.emitter.tick(this.now())), Math.max(0, deadline - this.now()) + 1);
  }
}
