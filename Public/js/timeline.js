// The messages of one timeline (a conversation's main one, or a thread's replies) as the page shows them: history, the user's own sends while they
// travel, and bots' replies while they stream. Pure (no DOM), so node tests the merge rules.
//
// Each item has a key that every later version of the same message carries:
// - a message with a clientMessageId: "<sender>:<clientMessageId>" (the sender's pending copy has it too);
// - a bot's streamed reply: "<bot>:stream-<messageId>", because the server stores the finished reply with
//   clientMessageId "stream-<messageId>": the stored `message` merges into the streamed bubble;
// - any other message: "id:<id>".

/** The key under which a `message` frame (or a history entry) is shown. */
export const messageKey = (message) =>
  message.clientMessageId ? `${message.sender}:${message.clientMessageId}` : `id:${message.id}`;

/** The prefix of a streamed reply's stored `clientMessageId` (ReplyID in TypewireCore; TestVectors/reply-ids.json). */
export const REPLY_PREFIX = 'stream-';

/** The streamed reply's `messageId` a stored message's `clientMessageId` names, or null for any other message. */
export const replyMessageId = (clientMessageId) =>
  typeof clientMessageId === 'string' && clientMessageId.startsWith(REPLY_PREFIX) ? clientMessageId.slice(REPLY_PREFIX.length) : null;

/** The key of a streamed reply, the same as the stored reply's. */
export const streamKey = (user, messageId) => `${user}:${REPLY_PREFIX}${messageId}`;

export class Timeline {
  /** @type {Array<{key: string, id: string|null, sender: string, senderName: string|null, text: string, sentAt: number, pending: boolean, streaming: boolean, editedAt: number|null}>} */
  items = [];

  /**
   * Replaces the history (the `subscribed` frame's recentMessages, oldest first); sends still travelling
   * and replies still streaming stay.
   */
  reset(messages) {
    const history = messages.map((m) => this.#fromMessage(m));
    const keys = new Set(history.map((item) => item.key));
    const inFlight = this.items.filter((item) => (item.pending || item.streaming) && !keys.has(item.key));
    this.items = history.concat(inFlight);
  }

  /**
   * A page of history fetched while live frames kept coming (a thread's replies, loaded when the thread is
   * first needed): the page's messages, oldest first, then the items it does not hold, in their order
   * (messages that arrived while it loaded, sends still travelling, replies still streaming).
   */
  merge(messages) {
    const history = messages.map((m) => this.#fromMessage(m));
    const rest = [];
    for (const item of this.items) {
      const index = history.findIndex((old) => old.key === item.key || (item.id !== null && old.id === item.id));
      if (index < 0) rest.push(item);
      else if ((item.editedAt ?? 0) > (history[index].editedAt ?? 0)) history[index] = item;  // an edit came live
    }
    this.items = history.concat(rest);
  }

  /** Shows the user's own message at once, before the server has it. */
  addPending({ clientMessageId, sender, senderName, text, sentAt }) {
    const item = { key: `${sender}:${clientMessageId}`, id: null, sender, senderName, text, sentAt, pending: true, streaming: false, editedAt: null };
    this.items.push(item);
    return item;
  }

  /**
   * A `message` frame: a new message, the stored copy of a pending send or of a streamed reply (merged,
   * never a second bubble), or an edit.
   * @returns {{item: object, isNew: boolean}}
   */
  applyMessage(message) {
    const key = messageKey(message);
    const existing = this.items.find((item) => item.key === key || (item.id !== null && item.id === message.id));
    if (existing) {
      Object.assign(existing, this.#fromMessage(message), { key: existing.key });
      return { item: existing, isNew: false };
    }
    const item = this.#fromMessage(message);
    this.items.push(item);
    return { item, isNew: true };
  }

  /**
   * A `stream` frame: appends the delta to the reply's item (creating it on the first part); the final
   * part ends the streaming and says how (`end`: finished, cancelled, timed_out or failed; a server that
   * does not say means finished). A part already applied (its `seq` is not past the last one) is skipped;
   * a catch-up (`text`, sent after `subscribed` while the reply streams) replaces the text so far.
   * @returns {{item: object, isNew: boolean}}
   */
  applyStream({ messageId, user, delta, final, seq, end, by, reason, asker, text }, senderName, now) {
    const key = streamKey(user, messageId);
    let item = this.items.find((candidate) => candidate.key === key);
    const isNew = !item;
    if (!item) {
      item = {
        key, id: null, sender: user, senderName, text: '', sentAt: now, pending: false, streaming: true, editedAt: null,
        replyId: messageId, asker: null, seq: 0, end: null, endedBy: null, reason: null,
      };
      this.items.push(item);
    }
    if (asker) item.asker = asker;
    if (item.streaming && !(seq && seq <= item.seq)) {
      item.text = typeof text === 'string' ? text : item.text + (delta ?? '');
      if (seq) item.seq = seq;
      if (final) Object.assign(item, { streaming: false, end: end ?? 'finished', endedBy: by ?? null, reason: reason ?? null });
    }
    return { item, isNew };
  }

  /** Ends a reply that stopped streaming without its final part (a dead bot leaves no cursor behind). */
  endStream(key) {
    const item = this.items.find((candidate) => candidate.key === key);
    if (item) item.streaming = false;
  }

  /** The users whose replies are streaming now: their bubble's cursor says what an indicator would. */
  streamingUsers() {
    return new Set(this.items.filter((item) => item.streaming).map((item) => item.sender));
  }

  /** The newest item, for the conversation list's preview. */
  last() {
    return this.items.at(-1) ?? null;
  }

  #fromMessage(message) {
    return {
      key: messageKey(message),
      id: message.id,
      sender: message.sender,
      senderName: message.senderName ?? null,
      text: message.text,
      sentAt: message.sentAt,
      pending: false,
      streaming: false,
      editedAt: message.editedAt ?? null,
    };
  }
}
