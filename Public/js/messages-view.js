// Renders a Timeline into the message list, reusing the DOM node of each item by its key, so a streamed
// reply grows in place and a pending send turns into the stored message without a new bubble.
import { el, avatar, clock } from './dom.js';

/**
 * @param {HTMLElement} container
 * @param {import('./timeline.js').Timeline} timeline
 * @param {{me: string, nameOf: (id: string) => string, isBot: (id: string) => boolean}} people
 */
export function renderMessages(container, timeline, { me, nameOf, isBot, stop, status = null }) {
  const nearBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 80;
  const existing = new Map([...container.children].map((node) => [node.dataset.key, node]));
  let previous = null;
  timeline.items.forEach((item, index) => {
    let node = existing.get(item.key);
    if (!node) node = buildMessage(item, { me, nameOf, isBot });
    existing.delete(item.key);
    updateMessage(node, item, timeline.items[index - 1], { me, stop, status: item.key === status?.key ? status : null });
    if (node.previousElementSibling !== previous || node.parentNode !== container) {
      if (previous) previous.after(node);
      else container.prepend(node);
    }
    previous = node;
  });
  for (const stale of existing.values()) stale.remove();
  if (nearBottom || timeline.items.at(-1)?.sender === me) container.scrollTop = container.scrollHeight;
}

function buildMessage(item, { me, nameOf, isBot }) {
  const mine = item.sender === me;
  const bot = isBot(item.sender);
  const name = item.senderName ?? nameOf(item.sender);
  const classes = ['message', mine ? 'mine' : 'theirs', bot ? 'bot' : ''].filter(Boolean).join(' ');
  return el('div', { class: classes, 'data-testid': 'message', dataset: { key: item.key, sender: item.sender } }, [
    avatar({ id: item.sender, name, bot }),
    el('div', { class: 'message-content' }, [
      el('span', { class: 'message-author', text: name }),
      el('div', { class: 'message-bubble' }, [el('span', { class: 'message-text', 'data-testid': 'message-text' })]),
      el('span', { class: 'message-meta' }),
    ]),
  ]);
}

/**
 * Draws an item's state; `status` (under the user's newest stored message: "Seen by Alice", else "Delivered" or
 * "Sent") joins its time, on the line that is always there (no layout jump).
 */
function updateMessage(node, item, before, { me, stop, status }) {
  const text = node.querySelector('.message-text');
  if (text.textContent !== item.text) text.textContent = item.text;
  node.classList.toggle('pending', item.pending);
  node.classList.toggle('continued', !!before && before.sender === item.sender && item.sentAt - before.sentAt < 5 * 60_000);
  node.dataset.streaming = String(item.streaming);
  if (item.end) node.dataset.end = item.end;
  if (item.id) node.dataset.messageId = item.id;
  const bubble = node.querySelector('.message-bubble');
  let cursor = bubble.querySelector('.stream-cursor');
  if (item.streaming && !cursor) {
    cursor = el('span', { class: 'stream-cursor', 'data-testid': 'stream-cursor', 'aria-hidden': 'true' });
    bubble.append(cursor);
  } else if (!item.streaming && cursor) {
    cursor.remove();
  }
  updateStopButton(node, item, { me, stop });
  const said = status?.text;
  const meta = item.pending ? 'Sending…' : item.streaming ? '' : `${clock(item.sentAt)}${item.editedAt ? ' · edited' : ''}${endNote(item)}${said ? ` · ${said}` : ''}`;
  node.dataset.seen = status?.seen ?? '';
  node.dataset.progress = status?.progress ?? '';
  const metaNode = node.querySelector('.message-meta');
  if (metaNode.textContent !== meta) metaNode.textContent = meta;
}

/** A streaming reply's Stop button, for the member it answers (or anyone, when it answers no one in particular). */
function updateStopButton(node, item, { me, stop }) {
  const shows = !!stop && item.streaming && !!item.replyId && (item.asker === null || item.asker === me);
  let button = node.querySelector('.stop-reply');
  if (shows && !button) {
    button = el('button', { class: 'stop-reply', type: 'button', 'data-testid': 'stop-reply', text: 'Stop' });
    button.addEventListener('click', () => {
      button.disabled = true;
      stop(item);
    });
    node.querySelector('.message-content').append(button);
  } else if (!shows && button) {
    button.remove();
  }
}

/** How a bot's reply ended, when not as written: stopped, cut off by the server, or failed (with the bot's reason). */
function endNote(item) {
  switch (item.end) {
    case 'cancelled': return ' · Stopped';
    case 'timed_out': return ' · Cut off';
    case 'failed': return item.reason ? ` · Failed: ${item.reason}` : ' · Failed';
    default: return '';
  }
}
