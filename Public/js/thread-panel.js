// The thread panel's drawing: the parent message, how many replies, the replies (drawn as the main
// timeline's messages are), the thread's own typing indicator and its composer. It sits beside the chat on
// wide screens and over it on narrower ones (style.css). The thread's rules are in open-thread.js; app.js
// wires the two together.
import { renderMessages } from './messages-view.js';
import { TypingIndicator } from './indicator.js';
import { fitComposer, wireComposer } from './composer-field.js';

export class ThreadPanel {
  /** @param {Document} document The page, holding the panel's elements (index.html). */
  constructor(document) {
    const $ = (id) => document.getElementById(id);
    this.app = $('app');
    this.root = $('thread-panel');
    this.subtitle = $('thread-subtitle');
    this.body = $('thread-body');
    this.parent = $('thread-parent');
    this.count = $('thread-count');
    this.replies = $('thread-messages');
    this.composer = $('thread-composer');
    this.input = $('thread-composer-input');
    this.send = $('thread-send');
    this.close = $('thread-close');
    this.indicator = new TypingIndicator($('thread-typing-indicator'), $('thread-typing-text'), $('thread-typing-a11y'));
  }

  /** Opens the panel, empty, for a thread of the conversation `title` (`kind`: "direct" or "group"). */
  show({ title, kind }) {
    this.parent.replaceChildren();
    this.replies.replaceChildren();
    this.subtitle.textContent = title;
    this.replies.dataset.kind = kind;
    this.parent.dataset.kind = kind;
    this.indicator.render(null, null);
    this.root.dataset.open = 'true';
    this.root.dataset.status = 'loading';
    this.app.dataset.thread = 'open';
  }

  hide() {
    this.root.dataset.open = 'false';
    this.app.dataset.thread = 'closed';
    this.indicator.render(null, null);
  }

  /**
   * Draws the thread.
   * @param {{parent: object, replies: import('./timeline.js').Timeline, status: 'loading'|'done'|'failed',
   *   people: {me: string, nameOf: (id: string) => string, isBot: (id: string) => boolean}}} thread
   */
  render({ parent, replies, status, people }) {
    const nearBottom = this.body.scrollHeight - this.body.scrollTop - this.body.clientHeight < 80;
    renderMessages(this.parent, { items: [parent] }, people);
    renderMessages(this.replies, replies, people);
    this.root.dataset.status = status;
    const count = replies.items.length;
    const text = count === 1 ? '1 reply'
      : count > 0 ? `${count} replies`
      : status === 'loading' ? 'Loading replies…'
      : status === 'failed' ? 'The replies could not be loaded'
      : 'No replies yet';
    if (this.count.textContent !== text) this.count.textContent = text;
    if (nearBottom || replies.items.at(-1)?.sender === people.me) this.body.scrollTop = this.body.scrollHeight;
  }

  /** The thread's typing indicator: the text, or null to hide it. */
  renderIndicator(text, accessibilityText, activity) {
    this.indicator.render(text, accessibilityText, activity);
  }

  /**
   * Wires the panel's controls: `onInput(text)` on each change of the composer's text, `onSubmit(text)` on
   * Enter or the send button (the composer empties when it returns true), `onClose()` on the close button
   * or Escape.
   */
  bind({ onInput, onSubmit, onClose }) {
    const submit = () => {
      if (onSubmit(this.input.value)) this.draft = '';
    };
    wireComposer({ form: this.composer, input: this.input, send: this.send }, { onInput, submit });
    this.close.addEventListener('click', onClose);
    this.root.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') onClose();
    });
  }

  /** The composer's text. */
  get draft() {
    return this.input.value;
  }

  set draft(text) {
    this.input.value = text;
    fitComposer({ input: this.input, send: this.send });
  }
}
