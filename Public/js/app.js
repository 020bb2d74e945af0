// Typewire's web demo: the page's shell. It owns the clock (performance.now()), the timers, the socket and
// the DOM; the rules live in the pure modules it drives: TypingEmitter (what to send while the user
// types), TypingRoster (whom to show), TypingText (the words) and Thread (the messages).
import { TypingText, localeFor } from './typing-text.js';
import { TypingEmitter, Input, frameActivity, hasVisibleCharacter } from './emitter.js';
import { TypingRoster } from './roster.js';
import { Thread } from './thread.js';
import { Connection } from './connection.js';
import { Api, demoToken, DEMO_USERS, BOT_USER } from './api.js';
import { TypingIndicator } from './indicator.js';
import { renderThread } from './messages-view.js';
import { renderConversationList } from './conversation-list.js';
import { renderChatHeader } from './chat-header.js';
import { el, avatar, paintAvatar } from './dom.js';

const $ = (id) => document.getElementById(id);
const now = () => performance.now();
const isBot = (id) => id === BOT_USER;
/** A streamed reply with no part for this long is over (BotActivity's chunk timeout). */
const STREAM_TIMEOUT = 10_000;

const params = new URLSearchParams(location.search);
const typingText = new TypingText({
  locale: localeFor(params.get('lang') ?? navigator.language) ?? 'en',
  style: params.get('style') ?? 'full',
});

const nodes = {
  app: $('app'),
  chat: $('chat'),
  list: $('conversation-list'),
  messages: $('messages'),
  composer: $('composer'),
  input: $('composer-input'),
  send: $('send'),
  connection: $('connection'),
  header: { avatar: $('chat-avatar'), title: $('chat-title'), subtitle: $('chat-subtitle'), members: $('members') },
};
const indicator = new TypingIndicator($('typing-indicator'), $('typing-text'), $('typing-a11y'));

const state = {
  me: null,
  token: null,
  api: null,
  connection: null,
  /** The intervals the server's `welcome` asked for (milliseconds). */
  config: { refreshInterval: 2000, idleTimeout: 3000 },
  /** False when the server is typing-only (`--no-messages`): messages belong to the app's own backend. */
  storesMessages: true,
  /** @type {Map<string, object>} */
  conversations: new Map(),
  openId: null,
  emitter: new TypingEmitter(),
  emitterTimer: null,
  rosterTimer: null,
  drafts: new Map(),
  /** Sends waiting for the socket: `send` frames, in order. */
  outbox: [],
  hasConnected: false,
};

// ---- signing in -------------------------------------------------------------------------------------

function renderPicker() {
  $('picker-users').replaceChildren(
    ...DEMO_USERS.map((user) => {
      const button = el('button', { type: 'button', 'data-testid': `pick-${user.id}`, dataset: { user: user.id } }, [
        avatar({ id: user.id, name: user.name }),
        el('span', { text: user.name }),
      ]);
      button.addEventListener('click', () => signIn(user.id));
      return el('li', {}, [button]);
    }),
  );
}

async function signIn(userID) {
  const error = $('picker-error');
  error.hidden = true;
  try {
    const identity = await demoToken(userID);
    state.me = { id: identity.user, name: identity.name || identity.user };
    state.token = identity.token;
    state.api = new Api(() => state.token);
    const conversations = await state.api.conversations();
    const participantLists = await Promise.all(conversations.map((c) => state.api.participants(c.id)));
    state.conversations = new Map(conversations.map((c, i) => [c.id, makeConversation(c, participantLists[i])]));
  } catch (failure) {
    error.textContent = `Could not sign in: ${failure.message}. Is the server running with --demo?`;
    error.hidden = false;
    return;
  }
  const query = new URLSearchParams(params);
  query.set('user', state.me.id);
  history.replaceState(null, '', `?${query}`);
  $('me-name').textContent = state.me.name;
  paintAvatar($('me-avatar'), { id: state.me.id, name: state.me.name });
  nodes.app.dataset.screen = 'list';
  state.connection = new Connection({
    token: async () => {
      state.token = (await demoToken(state.me.id)).token;
      return state.token;
    },
    onFrame: handleFrame,
    onStatus: handleStatus,
  });
  state.connection.start();
  renderSidebar();
  const wanted = params.get('c');
  const first = state.conversations.has(wanted) ? wanted : state.conversations.keys().next().value;
  if (first && (wanted || matchMedia('(min-width: 721px)').matches)) openConversation(first);
}

function signOut() {
  closeConversation();
  state.connection?.stop();
  for (const conversation of state.conversations.values()) conversation.streamTimers.forEach(clearTimeout);
  Object.assign(state, { me: null, token: null, api: null, connection: null, conversations: new Map(), outbox: [], hasConnected: false });
  state.drafts.clear();
  history.replaceState(null, '', location.pathname);
  nodes.app.dataset.screen = 'picker';
}

function makeConversation(conversation, participants) {
  const people = new Map(participants.map((p) => [p.id, { ...p }]));
  const others = participants.filter((p) => p.id !== state.me.id).map((p) => p.name ?? p.id);
  const roster = new TypingRoster(state.me.id, people.keys());
  for (const p of participants) roster.setOnline(p.online, p.id);
  return {
    id: conversation.id,
    kind: conversation.kind,
    title: conversation.title || others.join(', ') || 'Just you',
    participants: people,
    roster,
    thread: new Thread(),
    unread: 0,
    subscribed: false,
    streamTimers: new Map(),
    nameOf: (id) => people.get(id)?.name ?? id,
  };
}

// ---- frames from the server -------------------------------------------------------------------------

function handleStatus(status) {
  nodes.connection.dataset.status = status;
  nodes.connection.textContent = { online: 'Online', connecting: 'Connecting…', offline: 'Offline · reconnecting…' }[status];
  if (status !== 'offline') return;
  sendTyping(state.emitter.handle(Input.connectionLost, now()));
  for (const conversation of state.conversations.values()) conversation.subscribed = false;
  nodes.chat.dataset.subscribed = 'false';
}

function handleFrame(frame) {
  const conversation = state.conversations.get(frame.conversation);
  switch (frame.type) {
    case 'welcome':
      return welcomed(frame);
    case 'subscribed':
      if (conversation) subscribed(conversation, frame);
      return;
    case 'activity':
      if (!conversation) return;
      conversation.roster.apply(frame, now());
      if (conversation.id === state.openId) renderIndicator();
      return;
    case 'presence':
      if (conversation) presence(conversation, frame);
      return;
    case 'message':
      if (conversation && !frame.thread) message(conversation, frame);  // the page shows the main timeline only
      return;
    case 'ack':
      return acknowledged(frame);
    case 'stream':
      if (conversation && !frame.thread) stream(conversation, frame);
      return;
    case 'error':
      return failed(frame);
    default:
      return undefined;
  }
}

function welcomed(frame) {
  const { refreshInterval, idleTimeout } = frame.config ?? {};
  if (refreshInterval && idleTimeout && (refreshInterval !== state.config.refreshInterval || idleTimeout !== state.config.idleTimeout)) {
    state.config = { refreshInterval, idleTimeout };
    if (!state.emitter.isAnnounced) state.emitter = new TypingEmitter(state.config);
  }
  state.storesMessages = frame.config?.storesMessages !== false;
  // The server's limit in characters; the field counts UTF-16 units, at least as many: never longer.
  if (frame.config?.maxMessageLength) nodes.input.maxLength = frame.config.maxMessageLength;
  Object.assign(nodes.app.dataset, {
    refreshInterval: state.config.refreshInterval, idleTimeout: state.config.idleTimeout, storesMessages: state.storesMessages,
  });
  for (const id of state.conversations.keys()) state.connection.send({ type: 'subscribe', conversation: id });
  for (const send of state.outbox.splice(0)) state.connection.send(send);
  if (state.hasConnected) sendTyping(state.emitter.handle(Input.connectionRestored, now()));
  state.hasConnected = true;
}

function subscribed(conversation, frame) {
  conversation.participants = new Map(frame.participants.map((p) => [p.id, { ...p }]));
  conversation.roster.setParticipants(conversation.participants.keys());
  // A large group sends no presence (`presence: false`): offline marks would go stale and hide typers.
  const followsPresence = frame.presence !== false;
  for (const p of frame.participants) conversation.roster.setOnline(followsPresence ? p.online : true, p.id);
  conversation.roster.apply(frame.activity, now());
  conversation.thread.reset(frame.recentMessages ?? []);
  conversation.subscribed = true;
  renderSidebar();
  if (conversation.id === state.openId) renderOpenConversation();
}

function presence(conversation, frame) {
  const person = conversation.participants.get(frame.user);
  if (person) person.online = frame.online;
  conversation.roster.setOnline(frame.online, frame.user);
  renderSidebar();
  if (conversation.id === state.openId) {
    renderChatHeader(nodes.header, conversation, { me: state.me.id, isBot });
    renderIndicator();
  }
}

function message(conversation, frame) {
  const { item, isNew } = conversation.thread.applyMessage(frame);
  clearTimeout(conversation.streamTimers.get(item.key));
  conversation.streamTimers.delete(item.key);
  if (conversation.id !== state.openId && isNew && frame.sender !== state.me.id) conversation.unread += 1;
  renderSidebar();
  if (conversation.id === state.openId) renderMessagesAndIndicator(conversation);
}

function acknowledged(frame) {
  const found = findOwn(frame.clientMessageId);
  if (!found) return;
  found.item.pending = false;
  found.item.id = frame.messageId;
  if (found.conversation.id === state.openId) renderMessagesAndIndicator(found.conversation);
}

/** The user's own message with this clientMessageId, and its conversation. */
function findOwn(clientMessageId) {
  for (const conversation of state.conversations.values()) {
    const item = conversation.thread.items.find((i) => i.key === `${state.me.id}:${clientMessageId}`);
    if (item) return { conversation, item };
  }
  return null;
}

function stream(conversation, frame) {
  const { item } = conversation.thread.applyStream(frame, conversation.nameOf(frame.user), Date.now());
  clearTimeout(conversation.streamTimers.get(item.key));
  if (item.streaming) {
    const timer = setTimeout(() => {
      conversation.thread.endStream(item.key);
      if (conversation.id === state.openId) renderMessagesAndIndicator(conversation);
    }, STREAM_TIMEOUT);
    conversation.streamTimers.set(item.key, timer);
  }
  if (conversation.id === state.openId) renderMessagesAndIndicator(conversation);
  else renderSidebar();
}

function failed(frame) {
  const own = frame.ref ? findOwn(frame.ref) : null;
  if (frame.code === 'rate_limited' && own?.item.pending) {
    // The server refused this send for now; the same clientMessageId makes the retry safe.
    const retry = { type: 'send', conversation: own.conversation.id, clientMessageId: frame.ref, text: own.item.text };
    setTimeout(() => queueSend(retry), 1000);
    return;
  }
  console.warn(`Typewire: ${frame.code}: ${frame.message}`);
}

// ---- the open conversation ----------------------------------------------------------------------------

function openConversation(id) {
  if (id === state.openId) {
    nodes.app.dataset.screen = 'chat';
    return;
  }
  closeConversation();
  const conversation = state.conversations.get(id);
  if (!conversation) return;
  state.openId = id;
  state.emitter = new TypingEmitter(state.config);
  conversation.unread = 0;
  nodes.chat.dataset.open = 'true';
  nodes.app.dataset.screen = 'chat';
  nodes.messages.replaceChildren();
  nodes.messages.dataset.kind = conversation.kind;
  nodes.input.value = state.drafts.get(id) ?? '';
  nodes.input.placeholder = state.storesMessages ? `Message ${conversation.title}` : 'Typing only: this server keeps no messages';
  resizeComposer();
  renderSidebar();
  renderOpenConversation();
  nodes.input.focus();
}

/** Leaving the conversation: the emitter's stop goes out at once, the draft stays for later. */
function closeConversation() {
  if (!state.openId) return;
  sendTyping(state.emitter.handle(Input.leftConversation, now()));
  state.drafts.set(state.openId, nodes.input.value);
  clearTimeout(state.rosterTimer);
  state.openId = null;
  nodes.chat.dataset.open = 'false';
  nodes.chat.dataset.subscribed = 'false';
  indicator.render(null, null);
}

function renderOpenConversation() {
  const conversation = state.conversations.get(state.openId);
  if (!conversation) return;
  nodes.chat.dataset.subscribed = String(conversation.subscribed);
  renderChatHeader(nodes.header, conversation, { me: state.me.id, isBot });
  renderMessagesAndIndicator(conversation);
}

function renderMessagesAndIndicator(conversation) {
  renderThread(nodes.messages, conversation.thread, { me: state.me.id, nameOf: conversation.nameOf, isBot });
  renderIndicator();
}

/** Shows who is active now, and re-renders when the next entry expires. */
function renderIndicator() {
  clearTimeout(state.rosterTimer);
  const conversation = state.conversations.get(state.openId);
  if (!conversation) return;
  const at = now();
  conversation.roster.removeExpired(at);
  // A bot whose reply is streaming shows its cursor instead of an indicator.
  const streaming = conversation.thread.streamingUsers();
  const typers = conversation.roster.typers(at).filter((t) => !streaming.has(t.userID));
  const total = typers.length + conversation.roster.unlisted;
  indicator.render(typingText.text(typers, total), typingText.accessibilityText(typers, total), typers[0]?.activity);
  const deadline = conversation.roster.nextDeadline;
  if (deadline !== null) state.rosterTimer = setTimeout(renderIndicator, Math.max(0, deadline - now()) + 1);
}

function renderSidebar() {
  if (!state.me) return;
  renderConversationList(nodes.list, [...state.conversations.values()], {
    me: state.me.id,
    openId: state.openId,
    onOpen: openConversation,
    isBot,
  });
}

// ---- the composer: the sender's rules ---------------------------------------------------------------

/** Puts the emitter's frame on the wire for the open conversation, and arms the emitter's next deadline. */
function sendTyping(frame, conversation = state.openId) {
  if (frame && conversation) state.connection?.send({ type: 'activity', conversation, activity: frameActivity(frame) });
  clearTimeout(state.emitterTimer);
  const deadline = state.emitter.nextDeadline;
  if (deadline === null) return;
  state.emitterTimer = setTimeout(() => sendTyping(state.emitter.tick(now()), conversation), Math.max(0, deadline - now()) + 1);
}

function queueSend(frame) {
  if (!state.connection?.send(frame)) state.outbox.push(frame);
}

function submit() {
  const conversation = state.conversations.get(state.openId);
  const text = nodes.input.value;
  if (!conversation || !hasVisibleCharacter(text)) return;
  if (!state.storesMessages) {
    // Typing-only: the app's own backend would take the message; the stop must travel as a frame.
    sendTyping(state.emitter.handle(Input.messageSent, now()));
    nodes.input.value = '';
    state.drafts.delete(conversation.id);
    resizeComposer();
    return;
  }
  const clientMessageId = crypto.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  conversation.thread.addPending({ clientMessageId, sender: state.me.id, senderName: state.me.name, text, sentAt: Date.now() });
  // No stop frame of its own: the server clears the sender's typing before it fans the message out.
  state.emitter.handle(Input.messageSent, now());
  sendTyping(null);
  queueSend({ type: 'send', conversation: conversation.id, clientMessageId, text });
  nodes.input.value = '';
  state.drafts.delete(conversation.id);
  resizeComposer();
  renderSidebar();
  renderMessagesAndIndicator(conversation);
}

function resizeComposer() {
  nodes.input.style.height = 'auto';
  nodes.input.style.height = `${Math.min(nodes.input.scrollHeight + 2, 160)}px`;
  nodes.send.disabled = !hasVisibleCharacter(nodes.input.value);
}

nodes.input.addEventListener('input', () => {
  resizeComposer();
  if (state.openId) sendTyping(state.emitter.handle(Input.textChanged(nodes.input.value), now()));
});
nodes.input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    submit();
  }
});
nodes.composer.addEventListener('submit', (event) => {
  event.preventDefault();
  submit();
  nodes.input.focus();
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') sendTyping(state.emitter.handle(Input.wentToBackground, now()));
});
$('switch-user').addEventListener('click', signOut);
$('back').addEventListener('click', () => {
  closeConversation();
  nodes.app.dataset.screen = 'list';
  renderSidebar();
});

renderPicker();
resizeComposer();
if (params.get('user')) signIn(params.get('user'));
