// The main timeline's ways into threads, added to the bubbles messages-view.js draws: a "Reply in thread"
// button on each stored message (shown on hover or focus, always on touch screens), and under a message
// with replies or repliers its reply count and "2 people are replying…".
import { el } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
/** A speech bubble. */
const REPLY_ICON = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z';

/**
 * @param {HTMLElement} container The main timeline, as renderMessages left it.
 * @param {(id: string) => {replies: number, replying: string|null, replyingLabel: string|null, open: boolean}} infoFor
 *   What to show for a stored message: how many replies the page knows of, the replying text (null: no one),
 *   and whether its thread is the one open in the panel.
 */
export function renderThreadLinks(container, infoFor) {
  const nearBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 80;
  for (const node of container.children) {
    const content = node.querySelector('.message-content');
    const id = node.dataset.streaming === 'true' ? null : node.dataset.messageId;
    if (!content) continue;
    if (!id) {
      content.querySelector('.reply-action')?.remove();
      content.querySelector('.thread-line')?.remove();
      continue;
    }
    if (!content.querySelector('.reply-action')) content.querySelector('.message-bubble').append(replyAction(id));
    const { replies, replying, replyingLabel, open } = infoFor(id);
    node.dataset.threadOpen = String(open);
    let line = content.querySelector('.thread-line');
    if (replies === 0 && !replying) {
      line?.remove();
      continue;
    }
    if (!line) content.append((line = threadLine(id)));
    const link = line.querySelector('.thread-link');
    const count = replies === 1 ? '1 reply' : `${replies} replies`;
    link.hidden = replies === 0;
    if (link.textContent !== count) link.textContent = count;
    const status = line.querySelector('.replying');
    status.hidden = !replying;
    status.title = replyingLabel ?? '';
    const text = status.querySelector('.replying-text');
    if (replying && text.textContent !== replying) text.textContent = replying;
  }
  if (nearBottom) container.scrollTop = container.scrollHeight;
}

function replyAction(id) {
  return el('button', {
    type: 'button', class: 'reply-action', 'data-testid': 'reply-in-thread', title: 'Reply in thread', 'aria-label': 'Reply in thread',
    dataset: { thread: id },
  }, [replyIcon(), el('span', { text: 'Reply' })]);
}

function replyIcon() {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', REPLY_ICON);
  svg.append(path);
  return svg;
}

function threadLine(id) {
  return el('div', { class: 'thread-line', 'data-testid': 'thread-line' }, [
    el('button', { type: 'button', class: 'thread-link', 'data-testid': 'thread-replies', dataset: { thread: id } }),
    el('span', { class: 'replying', 'data-testid': 'message-replying' }, [
      el('span', { class: 'typing-dots', 'aria-hidden': 'true' }, [el('i'), el('i'), el('i')]),
      el('span', { class: 'replying-text', 'data-testid': 'message-replying-text' }),
    ]),
  ]);
}
