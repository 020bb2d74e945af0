// The receiver's view of who is active in one conversation. A port of TypewireCore's TypingRoster
// (Sources/TypewireCore/Roster/TypingRoster.swift), with time injected as milliseconds on the page's own
// clock (performance.now()).
//
// It applies the server's `activity` frames (each the whole state of the conversation) and keeps only
// what a person should see:
// - not the current user; only current participants; not users known to be offline;
// - no entry past its expiresAt, measured on the local clock: an entry has `expiresAt - serverTime`
//   milliseconds left when its frame arrives, whatever the skew between the two clocks;
// - one entry per user, even if the user is active on two devices;
// - a stable order: whoever started first stays first.
//
// The shell calls removeExpired(now) at nextDeadline and re-renders typers(now).

export class TypingRoster {
  /** @type {Array<{typer: object, since: number, expiresAt: number}>} */
  #entries = [];

  /**
   * @param {string} currentUserID The user who looks at the indicator.
   * @param {Iterable<string>} participants The conversation's participants.
   * @param {string|null} [thread] The thread it shows (the parent message's id); null: the main timeline.
   */
  constructor(currentUserID, participants = [], thread = null) {
    this.currentUserID = currentUserID;
    this.participants = new Set(participants);
    /** The thread it shows; null for the conversation's main timeline. */
    this.thread = thread;
    /** Users whom presence reported offline. */
    this.offlineUsers = new Set();
    /** How many active members the last frame counted (`total`) beyond those it listed. */
    this.unlisted = 0;
  }

  /**
   * Replaces the state with the server's `activity` frame.
   * @param {{entries: Array<{user: string, name?: string, activity: string, detail?: string, since: number, expiresAt: number}>, total?: number, serverTime: number}} update
   * @param {number} now When it arrived, on the local clock (milliseconds).
   */
  apply(update, now) {
    const incoming = new Map();
    for (const wire of update.entries) {
      // Only this roster's timeline: the main one (no thread) unless it was made for a thread.
      if ((wire.thread ?? null) !== this.thread || wire.activity === 'none' || !this.#isShown(wire.user)) continue;
      const entry = {
        typer: { userID: wire.user, name: wire.name ?? null, activity: wire.activity, detail: wire.detail },
        since: wire.since,
        expiresAt: now + (wire.expiresAt - update.serverTime),
      };
      const known = incoming.get(wire.user);
      incoming.set(wire.user, known ? merge(known, entry) : entry);
    }
    // Users already shown keep their places; newcomers follow in the order they started.
    const next = [];
    for (const entry of this.#entries) {
      const update = incoming.get(entry.typer.userID);
      if (update) {
        next.push(update);
        incoming.delete(entry.typer.userID);
      }
    }
    const newcomers = [...incoming.values()].sort(
      (a, b) => a.since - b.since || (a.typer.userID < b.typer.userID ? -1 : a.typer.userID > b.typer.userID ? 1 : 0),
    );
    this.#entries = next.concat(newcomers);
    // `total` counts users (each once, whatever threads they are active in), not entries.
    const listed = new Set(update.entries.map((entry) => entry.user)).size;
    this.unlisted = Math.max(0, (update.total ?? listed) - listed);
  }

  /** Replaces the participant set; entries of users who left are dropped. */
  setParticipants(participants) {
    this.participants = new Set(participants);
    this.#entries = this.#entries.filter((e) => this.participants.has(e.typer.userID));
  }

  /** Records a presence change; an offline user's entry is dropped at once. */
  setOnline(online, user) {
    if (online) {
      this.offlineUsers.delete(user);
    } else {
      this.offlineUsers.add(user);
      this.#entries = this.#entries.filter((e) => e.typer.userID !== user);
    }
  }

  /** The members to show, in stable order, leaving out entries expired at `now`. */
  typers(now) {
    return this.#entries.filter((e) => e.expiresAt > now).map((e) => e.typer);
  }

  /**
   * Drops the entries that expired at `now`.
   * @returns {boolean} Whether anything was dropped, so the shell knows to re-render.
   */
  removeExpired(now) {
    const count = this.#entries.length;
    this.#entries = this.#entries.filter((e) => e.expiresAt > now);
    return this.#entries.length !== count;
  }

  /** When the next entry expires (milliseconds on the local clock), or null. */
  get nextDeadline() {
    return this.#entries.length === 0 ? null : Math.min(...this.#entries.map((e) => e.expiresAt));
  }

  #isShown(user) {
    return isShown(this, user);
  }
}

/** Whether a roster shows a user's activity: not the current user, a participant, not known to be offline. */
const isShown = ({ currentUserID, participants, offlineUsers }, user) =>
  user !== currentUserID && participants.has(user) && !offlineUsers.has(user);

/**
 * How many people are active in each thread of one conversation, for "2 people are replying…" on each
 * parent message in the main timeline. It applies the same `activity` frames as TypingRoster and keeps the
 * same rules (not the current user, only participants, not offline, not expired on the local clock, one per
 * user across devices), but counts every thread's entries and never the main timeline's.
 */
export class ReplyingCounts {
  /** @type {Map<string, Map<string, number>>} thread → user → when their entry expires (local clock) */
  #threads = new Map();

  /**
   * @param {string} currentUserID The user who looks at the timeline.
   * @param {Iterable<string>} participants The conversation's participants.
   */
  constructor(currentUserID, participants = []) {
    this.currentUserID = currentUserID;
    this.participants = new Set(participants);
    /** Users whom presence reported offline. */
    this.offlineUsers = new Set();
  }

  /**
   * Replaces the state with the server's `activity` frame (the whole state of the conversation).
   * @param {{entries: Array<{user: string, activity: string, expiresAt: number, thread?: string}>, serverTime: number}} update
   * @param {number} now When it arrived, on the local clock (milliseconds).
   */
  apply(update, now) {
    const threads = new Map();
    for (const wire of update.entries) {
      if (wire.thread == null || wire.activity === 'none' || !isShown(this, wire.user)) continue;
      const expiresAt = now + (wire.expiresAt - update.serverTime);
      const users = threads.get(wire.thread) ?? new Map();
      // Two devices of one user count once, alive until the later one expires.
      users.set(wire.user, Math.max(users.get(wire.user) ?? -Infinity, expiresAt));
      threads.set(wire.thread, users);
    }
    this.#threads = threads;
  }

  /** How many are active in `thread` at `now`. */
  count(thread, now) {
    let count = 0;
    for (const expiresAt of this.#threads.get(thread)?.values() ?? []) if (expiresAt > now) count += 1;
    return count;
  }

  /** Every thread with someone active at `now`, and how many. */
  counts(now) {
    const counts = new Map();
    for (const thread of this.#threads.keys()) {
      const count = this.count(thread, now);
      if (count > 0) counts.set(thread, count);
    }
    return counts;
  }

  /** Replaces the participant set; entries of users who left are dropped. */
  setParticipants(participants) {
    this.participants = new Set(participants);
    this.#dropUsers((user) => !this.participants.has(user));
  }

  /** Records a presence change; an offline user's entries are dropped at once. */
  setOnline(online, user) {
    if (online) {
      this.offlineUsers.delete(user);
    } else {
      this.offlineUsers.add(user);
      this.#dropUsers((other) => other === user);
    }
  }

  /**
   * Drops the entries that expired at `now`.
   * @returns {boolean} Whether anything was dropped, so the shell knows to re-render.
   */
  removeExpired(now) {
    let dropped = false;
    for (const users of this.#threads.values()) {
      for (const [user, expiresAt] of users) {
        if (expiresAt > now) continue;
        users.delete(user);
        dropped = true;
      }
    }
    this.#dropEmptyThreads();
    return dropped;
  }

  /** When the next entry expires (milliseconds on the local clock), or null. */
  get nextDeadline() {
    const all = [...this.#threads.values()].flatMap((users) => [...users.values()]);
    return all.length === 0 ? null : Math.min(...all);
  }

  #dropUsers(matches) {
    for (const users of this.#threads.values()) for (const user of users.keys()) if (matches(user)) users.delete(user);
    this.#dropEmptyThreads();
  }

  #dropEmptyThreads() {
    for (const [thread, users] of this.#threads) if (users.size === 0) this.#threads.delete(thread);
  }
}

/** Folds a second entry of the same user (another device) into the first: earliest start keeps the place,
 * latest expiry keeps it alive, the most recent activity shows. */
function merge(entry, other) {
  return {
    typer: other.since > entry.since ? other.typer : entry.typer,
    since: Math.min(entry.since, other.since),
    expiresAt: Math.max(entry.expiresAt, other.expiresAt),
  };
}
