// The sidebar's conversation list: title, last message, unread count and, for chats with one other
// person, their presence dot. No typing indicators here, by design: they belong in the open chat.
import { el, avatar } from './dom.js';

/**
 * @param {HTMLElement} list
 * @param {Array<object>} conversations The app's conversation states, in display order.
 * @param {{me: string, openId: string|null, onOpen: (id: string) => void, isBot: (id: string) => boolean,
 *   onMarkUnread?: (id: string) => void}} options `onMarkUnread`: a row that is not open, has nothing unread
 *   and a message of someone else offers "Mark unread".
 */
export function renderConversationList(list, conversations, { me, openId, onOpen, isBot, onMarkUnread }) {
  // Each row keeps its button across renders, so a click never lands on a row that was just replaced.
  const rows = new Map([...list.children].map((li) => [li.dataset.conversation, li]));
  const ordered = conversations.map((conversation) => {
    let row = rows.get(conversation.id);
    if (!row) {
      const button = el('button', { type: 'button', 'data-testid': 'conversation-item', dataset: { conversation: conversation.id } });
      button.addEventListener('click', () => onOpen(conversation.id));
      const mark = el('button', { type: 'button', class: 'mark-unread', 'data-testid': 'mark-unread', text: 'Mark unread' });
      mark.addEventListener('click', () => onMarkUnread?.(conversation.id));
      row = el('li', { dataset: { conversation: conversation.id } }, [button, mark]);
    }
    rows.delete(conversation.id);
    const button = row.firstElementChild;
    button.setAttribute('aria-current', String(conversation.id === openId));
    button.replaceChildren(...rowContent(conversation, me, isBot, conversation.id === openId).filter(Boolean));
    const othersWrote = conversation.timeline.items.some((item) => item.id && item.sender !== me);
    row.lastElementChild.hidden = !onMarkUnread || conversation.id === openId || conversation.unread > 0 || !othersWrote;
    return row;
  });
  for (const stale of rows.values()) stale.remove();
  ordered.forEach((row, index) => {
    if (list.children[index] !== row) list.insertBefore(row, list.children[index] ?? null);
  });
}

function rowContent(conversation, me, isBot, isOpen) {
  const other = otherMember(conversation, me);
  const last = conversation.timeline.last();
  const author = !last ? '' : last.sender === me ? 'You: ' : conversation.kind === 'group' ? `${firstName(last.senderName ?? conversation.nameOf(last.sender))}: ` : '';
  const preview = last ? author + last.text : kindLabel(conversation);
  const face = other
    ? avatar({ id: other.id, name: other.name, online: other.online, bot: isBot(other.id) })
    : avatar({ id: conversation.id, name: conversation.title });
  return [
    face,
    el('span', { class: 'conversation-text' }, [
      el('span', { class: 'conversation-title', text: conversation.title }),
      el('span', { class: 'conversation-preview', text: preview }),
    ]),
    conversation.unread > 0 && !isOpen ? el('span', { class: 'unread', 'aria-label': `${conversation.unread} unread`, text: String(conversation.unread) }) : null,
  ];
}

/** The other person of a chat of two, or null for a group. */
export function otherMember(conversation, me) {
  if (conversation.kind === 'group') return null;
  return [...conversation.participants.values()].find((p) => p.id !== me) ?? null;
}

function firstName(name) {
  return String(name ?? '').split(/\s+/u)[0];
}

function kindLabel(conversation) {
  return conversation.kind === 'group' ? `${conversation.participants.size} members` : 'No messages yet';
}
