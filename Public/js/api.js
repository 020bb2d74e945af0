// The server's REST API and the demo's token endpoint (docs/PROTOCOL.md, "REST").

async function json(response) {
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const body = await response.json();
      message = body?.error?.message ?? message;
    } catch {
      message = (await response.text().catch(() => '')) || message;
    }
    throw new Error(message);
  }
  return response.json();
}

/**
 * The users `typewire serve --demo` seeded, as the server lists them: `[{id, name, bot?}]` (`bot: true` for a
 * bot). Only a server started with `--demo` lists them.
 */
export async function demoUsers() {
  return (await json(await fetch('/v1/demo/users', { cache: 'no-store' }))).users;
}

/**
 * A demo token for a user: `{token, user, name}`. Only a server started with `--demo` hands them out.
 * @param {string} user
 */
export async function demoToken(user) {
  return json(await fetch(`/v1/demo/token?user=${encodeURIComponent(user)}`, { cache: 'no-store' }));
}

/** The REST calls a signed-in page makes, with its bearer token. */
export class Api {
  /** @param {() => string} token The current token (it changes when the page fetches a new one). */
  constructor(token) {
    this.token = token;
  }

  async #get(path) {
    return json(await fetch(path, { headers: { Authorization: `Bearer ${this.token()}` }, cache: 'no-store' }));
  }

  /** The user's conversations: `[{id, kind, title, creator}]`. */
  async conversations() {
    return (await this.#get('/v1/conversations')).conversations;
  }

  /** A conversation's participants: `[{id, name, online}]`. */
  async participants(conversation) {
    return (await this.#get(`/v1/conversations/${encodeURIComponent(conversation)}/participants`)).participants;
  }

  /**
   * A thread's replies, oldest first: the newest `limit` (at most 200) of the message `thread`'s replies.
   * @param {string} conversation
   * @param {string} thread The parent message's id.
   */
  async replies(conversation, thread, limit = 200) {
    const query = new URLSearchParams({ thread, limit: String(limit) });
    return (await this.#get(`/v1/conversations/${encodeURIComponent(conversation)}/messages?${query}`)).messages;
  }
}
