// Read state on the page: when the open conversation's newest message counts as seen, and who has read a
// message. The rules of the Swift SDK's SeenTracker and ReadReporter, on the page's clock.

/**
 * Decides the page's `read` frames. Seen means: the message was the open conversation's newest stored one
 * while the page was visible (`document.visibilityState`), without a break, for `dwell` ms; a hidden tab
 * reads nothing. At most one `read` per `interval` ms per conversation: the first at once, the newest of
 * the rest when the interval has passed. A conversation's message is answered once.
 */
export class ReadTracker {
  constructor({ dwell = 1000, interval = 1000 } = {}) {
    this.dwell = dwell;
    this.interval = interval;
    /** What is on screen: {conversation, messageId, since} (since: null while the page is hidden). */
    this.shown = null;
    /** Per conversation: the last message answered, and when a `read` last went out. */
    this.answered = new Map();
    this.sentAt = new Map();
  }

  /**
   * The page's state changed.
   * @param {{conversation: string|null, messageId: string|null, visible: boolean}} page
   * @param {number} now
   * @returns {{conversation: string, messageId: string}|null} The read to send now.
   */
  update({ conversation, messageId, visible }, now) {
    const same = this.shown && this.shown.conversation === conversation && this.shown.messageId === messageId;
    if (!conversation || !messageId) this.shown = null;
    else if (!same) this.shown = { conversation, messageId, since: visible ? now : null };
    else if (!visible) this.shown.since = null;
    else this.shown.since ??= now;
    return this.tick(now);
  }

  /** The user marked a conversation unread: its newest message is answered again once it is seen. */
  markedUnread(conversation) {
    this.answered.delete(conversation);
    if (this.shown?.conversation === conversation) this.shown = null;
  }

  /** The connection dropped: a read sent may not have arrived, so what is on screen is answered again. */
  connectionLost() {
    this.answered.clear();
  }

  /** When `tick` has something to do (null: nothing is on its way). */
  get nextDeadline() {
    const shown = this.shown;
    if (!shown || shown.since === null || this.answered.get(shown.conversation) === shown.messageId) return null;
    const last = this.sentAt.get(shown.conversation);
    return Math.max(shown.since + this.dwell, last === undefined ? 0 : last + this.interval);
  }

  /** Lets time pass: the read that is due, if any. */
  tick(now) {
    const deadline = this.nextDeadline;
    if (deadline === null || now < deadline) return null;
    const { conversation, messageId } = this.shown;
    this.answered.set(conversation, messageId);
    this.sentAt.set(conversation, now);
    return { conversation, messageId };
  }
}

/**
 * Who has read a message, for "Seen by": the members (its sender aside) whose mark is at it or past it in
 * the timeline's order, in the order they read; in a large group (`readCounts`), how many.
 * @param {{id: string, sender: string}} message
 * @param {Map<string, {messageId: string, at: number}>} marks Each other member's newest read.
 * @param {(id: string) => number} positionOf A message's index in the timeline (-1: not there).
 * @param {Array<{messageId: string, readers: number}>|null} readCounts
 * @returns {{names: string[]}|{count: number}|null} null: not known.
 */
export function readersOf(message, marks, positionOf, readCounts) {
  if (readCounts) {
    const counted = readCounts.find((c) => c.messageId === message.id);
    return counted ? { count: counted.readers } : null;
  }
  const at = positionOf(message.id);
  if (at < 0) return null;
  const readers = [...marks.entries()]
    .filter(([user, mark]) => user !== message.sender && positionOf(mark.messageId) >= at)
    .sort((a, b) => a[1].at - b[1].at || (a[0] < b[0] ? -1 : 1));
  return { names: readers.map(([user]) => user) };
}

/**
 * How far one of the user's messages has gone among the other members, for its ticks (the rule of the Swift
 * SDK's `ReadState.progress(of:others:position:)`): 'read' once every one of them read it, 'delivered' once
 * every one of them has it on a device (received or read), 'sent' otherwise and while nobody else is there;
 * in a large group (`readCounts`), 'read' once its counted readers are all the others, 'sent' otherwise.
 * @param {{id: string}} message
 * @param {string[]} others The members other than its sender.
 * @param {Map<string, {messageId: string}>} marks Each other member's newest read.
 * @param {Map<string, {messageId: string}>} delivered Each other member's newest delivered message.
 * @param {(id: string) => number} positionOf A message's index in the timeline (-1: not there).
 * @param {Array<{messageId: string, readers: number}>|null} readCounts
 * @returns {'sent'|'delivered'|'read'}
 */
export function progressOf(message, others, marks, delivered, positionOf, readCounts) {
  if (others.length === 0) return 'sent';
  if (readCounts) return (readCounts.find((c) => c.messageId === message.id)?.readers ?? 0) >= others.length ? 'read' : 'sent';
  const at = positionOf(message.id);
  if (at < 0) return 'sent';
  const reached = (mark) => mark !== undefined && positionOf(mark.messageId) >= at;
  if (others.every((user) => reached(marks.get(user)))) return 'read';
  return others.every((user) => reached(marks.get(user)) || reached(delivered.get(user))) ? 'delivered' : 'sent';
}

/**
 * Decides the page's `delivered` frames: the newest message of others that reached the page, per timeline
 * (a conversation's main one, or a thread), at most one per `interval` ms each: the first at once, the
 * newest of the rest when the interval has passed (the server keeps the newest mark only).
 */
export class DeliveryReports {
  constructor({ interval = 1000 } = {}) {
    this.interval = interval;
    /** Per timeline key: when a `delivered` last went out, and the one waiting. */
    this.sentAt = new Map();
    this.waiting = new Map();
  }

  /**
   * A message of another member reached the page.
   * @returns {{conversation: string, thread?: string, messageId: string}|null} The frame's fields to send now.
   */
  received({ conversation, thread = null, messageId }, now) {
    const key = `${conversation}\u0000${thread ?? ''}`;
    this.waiting.set(key, { conversation, messageId });
    return this.#due(key, now);
  }

  /** When `tick` has something to do (null: nothing waits). */
  get nextDeadline() {
    let next = null;
    for (const key of this.waiting.keys()) {
      const at = (this.sentAt.get(key) ?? -Infinity) + this.interval;
      next = next === null ? at : Math.min(next, at);
    }
    return next;
  }

  /** Lets time pass: the reports that are due. */
  tick(now) {
    return [...this.waiting.keys()].map((key) => this.#due(key, now)).filter((report) => report !== null);
  }

  #due(key, now) {
    const last = this.sentAt.get(key);
    if (last !== undefined && now < last + this.interval) return null;
    const report = this.waiting.get(key);
    this.waiting.delete(key);
    this.sentAt.set(key, now);
    return report;
  }
}
