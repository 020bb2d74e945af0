// The replies of one conversation's threads that the page knows of: a Timeline per parent message, made when
// first needed (a live reply, a streamed part, the panel opening), and whether each thread's history was
// fetched since the conversation's last `subscribed` (replies sent while the socket was away come with it).
// No DOM and no network of its own (the fetch is handed in), so node tests it.
import { Timeline } from './timeline.js';

export class Replies {
  /** @type {Map<string, Timeline>} parent message id → its replies */
  #threads = new Map();
  /** @type {Map<string, {status: 'loading'|'done'|'failed'}>} parent message id → its history's fetch */
  #loads = new Map();

  /** The replies to `parentId` (an empty Timeline the first time). */
  of(parentId) {
    let thread = this.#threads.get(parentId);
    if (!thread) this.#threads.set(parentId, (thread = new Timeline()));
    return thread;
  }

  /** How many replies to `parentId` the page knows of (sends still travelling and replies streaming included). */
  count(parentId) {
    return this.#threads.get(parentId)?.items.length ?? 0;
  }

  /** Whether the history of `parentId`'s thread is 'loading', 'done' or 'failed'; null if it was not fetched. */
  status(parentId) {
    return this.#loads.get(parentId)?.status ?? null;
  }

  /** Every thread the page knows of: [parent id, Timeline]. */
  entries() {
    return this.#threads.entries();
  }

  /**
   * Fetches the history of `parentId`'s thread and merges it with the replies that came live meanwhile,
   * unless it was fetched (or is being) since the last forget(); a fetch that failed is tried again.
   * @param {string} parentId
   * @param {(parentId: string) => Promise<Array<object>>} fetchPage The thread's newest replies, oldest first.
   * @returns {Promise<'done'|'failed'|'stale'>|null} How it ended ('stale': forget() ran meanwhile, and the
   *   page was dropped), or null when nothing was fetched.
   */
  load(parentId, fetchPage) {
    const known = this.#loads.get(parentId);
    if (known && known.status !== 'failed') return null;
    const load = { status: 'loading' };
    this.#loads.set(parentId, load);
    const current = () => this.#loads.get(parentId) === load;
    return Promise.resolve()
      .then(() => fetchPage(parentId))
      .then(
        (messages) => {
          if (!current()) return 'stale';
          this.of(parentId).merge(messages);
          load.status = 'done';
          return 'done';
        },
        (error) => {
          if (!current()) return 'stale';
          load.status = 'failed';
          load.error = error;
          return 'failed';
        },
      );
  }

  /** Why the last fetch of `parentId`'s thread failed, if it did. */
  error(parentId) {
    return this.#loads.get(parentId)?.error ?? null;
  }

  /** A new subscription: every thread's history is fetched again when next needed. */
  forget() {
    this.#loads.clear();
  }
}
