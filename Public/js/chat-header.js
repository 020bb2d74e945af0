// The open chat's header: who it is with, who of them is online (presence dots), and when the other member
// of a direct conversation was last seen.
import { el, avatar, paintAvatar } from './dom.js';
import { otherMember } from './conversation-list.js';
import { presenceStatus, presenceText } from './presence-words.js';

/**
 * @param {{avatar: HTMLElement, title: HTMLElement, subtitle: HTMLElement, members: HTMLElement}} nodes
 * @param {object} conversation The app's conversation state.
 * @param {{me: string, isBot: (id: string) => boolean, locale?: string, now?: number}} options The typing
 *   text's locale, for "last seen", and the time to say it at.
 */
export function renderChatHeader(nodes, conversation, { me, isBot, locale = 'en', now = Date.now() }) {
  const other = otherMember(conversation, me);
  const people = [...conversation.participants.values()];
  paintAvatar(
    document.getElementById(nodes.avatar.id) ?? nodes.avatar,
    other
      ? { id: other.id, name: other.name, online: other.online, bot: isBot(other.id) }
      : { id: conversation.id, name: conversation.title },
  );
  nodes.title.textContent = conversation.title;
  if (other) {
    // "online", "last seen 5 minutes ago", "last seen recently", in the typing text's language.
    const status = presenceStatus(other, now);
    nodes.subtitle.textContent = isBot(other.id)
      ? other.online ? 'AI assistant · online' : 'AI assistant'
      : status ? presenceText(locale, status) : 'Offline';
  } else {
    const online = people.filter((p) => p.online || p.id === me).length;
    nodes.subtitle.textContent = `${people.length} members · ${online} online`;
  }
  nodes.members.replaceChildren(
    ...(other ? [] : people).map((p) =>
      el('li', { title: `${p.name ?? p.id}${p.id === me ? ' (you)' : ''} · ${p.online || p.id === me ? 'online' : 'offline'}` }, [
        avatar({ id: p.id, name: p.name, online: p.online || p.id === me, bot: isBot(p.id) }),
      ]),
    ),
  );
}
