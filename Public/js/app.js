// Typewire's web demo: the page's shell. It owns the clock (performance.now()), the timers, the socket and
// the DOM; the rules live in the pure modules it drives: TypingEmitter (what to send while the user
// types), TypingRoster (whom to show), ReplyingCounts (who is replying in which thread), TypingText (the
// words) and Timeline (the messages of the main timeline or a thread). The thread open in the panel is an OpenThread (open-thread.js).
import { TypingText, localeFor } from './typing-text.js';
import { TypingEmitter, Input, frameActivity, hasVisibleCharacter } from './emitter.js';
import { TypingRoster, ReplyingCounts } from './roster.js';
import { Timeline } from './timeline.js';
import { Connection } from './connection.js';
import { Api, demoToken, demoUsers } from './api.js';
import { TypingIndicator } from './indicator.js';
import { renderMessages } from './messages-view.js';
import { renderConversationList } from './conversation-list.js';
import { renderChatHeader } from './chat-header.js';
import { renderThreadLinks } from './thread-links.js';
import { ThreadPanel } from './thread-panel.js';
import { OpenThread } from './open-thread.js';
import { Replies } from './replies.js';
import { el, avatar, paintAvatar } from './dom.js';
import { fitComposer, wireComposer } from './composer-field.js';
import { DeliveryReports, ReadTracker, progressOf, readersOf } from './reads.js';
import { progressText } from './progress-words.js';

const $ = (id) => document.getElementById(id);
const now = () => performance.now();
/** The bots among the users the page has heard of: the server flags them (`bot: true`), the page names none. */
const bots = new Set();
const isBot = (id) => bots.has(id);
/** Notes the bots among users the server listed (participants, the demo users). */
const noteBots = (users) => {
  for (const user of users) if (user.bot) bots.add(user.id);
};
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
const panel = new ThreadPanel(document);

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
  /** What the page reports read (ReadTracker), and its timer. */
  reads: new ReadTracker(),
  readTimer: null,
  /** What the page reports delivered (DeliveryReports), and its timer. */
  deliveries: new DeliveryReports(),
  deliveryTimer: null,
  emitterTimer: null,
  rosterTimer: null,
  drafts: new Map(),
  /** The thread open in the panel (an OpenThread), or null. */
  thread: null,
  /** The panel composer's drafts, by "conversation/parent id". */
  replyDrafts: new Map(),
  /** Sends waiting for the socket: `send` frames, in order. */
  unsentFrames: [],
  hasConnected: false,
};

// ---- signing in -------------------------------------------------------------------------------------

async function renderPicker() {
  let users;
  try {
    users = await demoUsers();
  } catch (error) {
    const shown = $('picker-error');
    shown.textContent = `The demo users could not be read: ${error.message}. Is the server running with --demo?`;
    shown.hidden = false;
    return;
  }
  noteBots(users);
  $('picker-users').replaceChildren(
    ...users.filter((user) => !user.bot).map((user) => {
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
  Object.assign(state, { me: null, token: null, api: null, connection: null, conversations: new Map(), unsentFrames: [], hasConnected: false });
  state.drafts.clear();
  state.replyDrafts.clear();
  history.replaceState(null, '', location.pathname);
  nodes.app.dataset.screen = 'picker';
}

function makeConversation(conversation, participants) {
  noteBots(participants);
  const people = new Map(participants.map((p) => [p.id, { ...p }]));
  const others = participants.filter((p) => p.id !== state.me.id).map((p) => p.name ?? p.id);
  const roster = new TypingRoster(state.me.id, people.keys());
  const replying = new ReplyingCounts(state.me.id, people.keys());
  for (const p of participants) for (const counter of [roster, replying]) counter.setOnline(p.online, p.id);
  return {
    id: conversation.id,
    kind: conversation.kind,
    title: conversation.title || others.join(', ') || 'Just you',
    participants: people,
    roster,
    /** How many others are active in each thread, for "2 people are replying…" on the parents. */
    replying,
    /** The last `activity` frame and when it came (local clock), to start a thread panel's roster. */
    lastActivity: null,
    /** The main timeline. */
    timeline: new Timeline(),
    /** The replies to its messages that the page knows of, per thread. */
    replies: new Replies(),
    /** Messages of others past the user's mark: the server's count (`subscribed`, `unread`), and arrivals. */
    unread: 0,
    /** The other members' newest reads (user → {messageId, at}); a large group's `readCounts` instead. */
    marks: new Map(),
    /** The other members' newest delivered messages (user → {messageId, at}); none in a large group. */
    delivered: new Map(),
    readCounts: null,
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
  state.thread?.handle(Input.connectionLost);
  // Away from the server nobody is known to be online: each conversation's next `subscribed` says who is.
  for (const conversation of state.conversations.values()) {
    conversation.subscribed = false;
    for (const person of conversation.participants.values()) person.online = false;
  }
  nodes.chat.dataset.subscribed = 'false';
  renderSidebar();
  const open = state.conversations.get(state.openId);
  if (open) renderChatHeader(nodes.header, open, { me: state.me.id, isBot, locale: typingText.locale });
  state.reads.connectionLost();  // a read on its way may not have reached the server: the next one goes again
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
      if (conversation) activity(conversation, frame);
      return;
    case 'presence':
      if (conversation) presence(conversation, frame);
      return;
    case 'message':
      if (conversation) message(conversation, frame);
      return;
    case 'ack':
      return acknowledged(frame);
    case 'stream':
      if (conversation) stream(conversation, frame);
      return;
    case 'unread':
      if (conversation && !frame.thread) unread(conversation, frame);
      return;
    case 'receipts':
      if (conversation && !frame.thread) receipts(conversation, frame);
      return;
    case 'error':
      return failed(frame);
    default:
      return undefined;
  }
}

/** The shortest and longest interval (ms) taken from a server: 0 would be a tight loop of frames. */
const clientIntervals = { min: 500, max: 60000 };
const clampedInterval = (ms) => (Number.isFinite(ms) ? Math.min(Math.max(ms, clientIntervals.min), clientIntervals.max) : undefined);

function welcomed(frame) {
  const refreshInterval = clampedInterval(frame.config?.refreshInterval);
  const idleTimeout = clampedInterval(frame.config?.idleTimeout);
  if (refreshInterval && idleTimeout && (refreshInterval !== state.config.refreshInterval || idleTimeout !== state.config.idleTimeout)) {
    state.config = { refreshInterval, idleTimeout };
    if (!state.emitter.isAnnounced) state.emitter = new TypingEmitter(state.config);
    state.thread?.configure(state.config);
  }
  state.storesMessages = frame.config?.storesMessages !== false;
  // The server's limit in characters; the field counts UTF-16 units, at least as many: never longer.
  if (frame.config?.maxMessageLength) nodes.input.maxLength = panel.input.maxLength = frame.config.maxMessageLength;
  Object.assign(nodes.app.dataset, {
    refreshInterval: state.config.refreshInterval, idleTimeout: state.config.idleTimeout, storesMessages: state.storesMessages,
  });
  for (const id of state.conversations.keys()) state.connection.send({ type: 'subscribe', conversation: id, readState: true });
  for (const send of state.unsentFrames.splice(0)) state.connection.send(send);
  if (state.hasConnected) {
    sendTyping(state.emitter.handle(Input.connectionRestored, now()));
    state.thread?.handle(Input.connectionRestored);
  }
  state.hasConnected = true;
}

function subscribed(conversation, frame) {
  noteBots(frame.participants);
  conversation.participants = new Map(frame.participants.map((p) => [p.id, { ...p }]));
  // A large group sends no presence (`presence: false`): offline marks would go stale and hide typers.
  const followsPresence = frame.presence !== false;
  const at = now();
  for (const roster of rostersOf(conversation)) {
    roster.setParticipants(conversation.participants.keys());
    for (const p of frame.participants) roster.setOnline(followsPresence ? p.online : true, p.id);
    roster.apply(frame.activity, at);
  }
  conversation.lastActivity = { frame: frame.activity, at };
  conversation.timeline.reset(frame.recentMessages ?? []);
  conversation.replies.forget();  // replies sent while the socket was away come when a thread is next needed
  // The server's read state (absent on a typing-only server): it holds the recent messages already.
  if (frame.unread !== undefined) conversation.unread = frame.unread;
  conversation.marks = new Map((frame.reads ?? []).filter((r) => r.user !== state.me.id).map((r) => [r.user, r]));
  conversation.delivered = new Map((frame.delivered ?? []).filter((r) => r.user !== state.me.id).map((r) => [r.user, r]));
  conversation.readCounts = frame.readCounts ?? null;
  const newest = (frame.recentMessages ?? []).findLast((m) => m.sender !== state.me.id);
  if (newest) received(conversation, newest);
  conversation.subscribed = true;
  renderSidebar();
  if (conversation.id === state.openId) renderOpenConversation();
  if (isThreadOpen(conversation)) {
    loadReplies(conversation, state.thread.parentId);
    renderThreadPanel();
  }
}

/** The conversation's whole activity state: its main timeline's roster, its threads' counts, its open thread's roster. */
function activity(conversation, frame) {
  const at = now();
  conversation.lastActivity = { frame, at };
  for (const roster of rostersOf(conversation)) roster.apply(frame, at);
  if (conversation.id === state.openId) renderIndicator();
  if (isThreadOpen(conversation)) state.thread.renderIndicator();
}

/** What the conversation's `activity` and `presence` frames feed: the main roster, the threads' counts, the open thread's roster. */
function rostersOf(conversation) {
  return isThreadOpen(conversation) ? [conversation.roster, conversation.replying, state.thread.roster] : [conversation.roster, conversation.replying];
}

function presence(conversation, frame) {
  const person = conversation.participants.get(frame.user);
  if (person) Object.assign(person, { online: frame.online, lastSeenAt: frame.lastSeenAt, lastSeen: frame.lastSeen });
  for (const roster of rostersOf(conversation)) roster.setOnline(frame.online, frame.user);
  renderSidebar();
  if (conversation.id === state.openId) {
    renderChatHeader(nodes.header, conversation, { me: state.me.id, isBot, locale: typingText.locale });
    renderIndicator();
  }
  if (isThreadOpen(conversation)) state.thread.renderIndicator();
}

function message(conversation, frame) {
  const { item, isNew } = timelineOf(conversation, frame.thread).applyMessage(frame);
  clearTimeout(conversation.streamTimers.get(item.key));
  conversation.streamTimers.delete(item.key);
  if (frame.thread) {
    if (isNew && frame.sender !== state.me.id) received(conversation, frame);
    loadReplies(conversation, frame.thread);  // the thread's earlier replies, for its count
    renderTimeline(conversation, frame.thread);
    return;
  }
  if (isNew && frame.sender === state.me.id) conversation.unread = 0;  // a send is a read
  if (isNew && frame.sender !== state.me.id) {
    received(conversation, frame);
    conversation.unread = Math.min(conversation.unread + 1, 999);  // until the server's next count
    conversation.marks.set(frame.sender, { user: frame.sender, messageId: frame.id, at: frame.sentAt });  // they read what they sent
  }
  renderSidebar();
  if (conversation.id === state.openId) renderMessagesAndIndicator(conversation);
  if (isThreadOpen(conversation, item.id)) renderThreadPanel();  // its parent was edited
}

/** The user's own mark moved (on this page or another device): the server's count. */
function unread(conversation, frame) {
  conversation.unread = frame.count;
  renderSidebar();
}

/** Others read further: their marks, or a large group's counts. */
function receipts(conversation, frame) {
  for (const read of frame.reads) if (read.user !== state.me.id) conversation.marks.set(read.user, read);
  if (!frame.thread) for (const mark of frame.delivered ?? []) if (mark.user !== state.me.id) conversation.delivered.set(mark.user, mark);
  if (frame.readCounts) conversation.readCounts = frame.readCounts;
  if (conversation.id === state.openId) renderMessagesAndIndicator(conversation);
}

function acknowledged(frame) {
  const found = findOwn(frame.clientMessageId);
  if (!found) return;
  found.item.pending = false;
  found.item.id = frame.messageId;
  renderTimeline(found.conversation, found.parentId);
}

/** The user's own message with this clientMessageId: its conversation, its thread's parent id (null: the main timeline) and its item. */
function findOwn(clientMessageId) {
  const key = `${state.me.id}:${clientMessageId}`;
  for (const conversation of state.conversations.values()) {
    for (const [parentId, timeline] of [[null, conversation.timeline], ...conversation.replies.entries()]) {
      const item = timeline.items.find((i) => i.key === key);
      if (item) return { conversation, parentId, item };
    }
  }
  return null;
}

function stream(conversation, frame) {
  const timeline = timelineOf(conversation, frame.thread);
  const { item } = timeline.applyStream(frame, conversation.nameOf(frame.user), Date.now());
  clearTimeout(conversation.streamTimers.get(item.key));
  if (item.streaming) {
    const timer = setTimeout(() => {
      timeline.endStream(item.key);
      renderTimeline(conversation, frame.thread);
    }, STREAM_TIMEOUT);
    conversation.streamTimers.set(item.key, timer);
  }
  if (frame.thread) loadReplies(conversation, frame.thread);
  renderTimeline(conversation, frame.thread);
}

/** The main timeline (no parent id) or a thread's replies. */
const timelineOf = (conversation, parentId) => (parentId ? conversation.replies.of(parentId) : conversation.timeline);

/** Draws what changed in one timeline: the open chat or the sidebar's preview; for a thread, its parent's count and the panel. */
function renderTimeline(conversation, parentId = null) {
  if (parentId) {
    if (conversation.id === state.openId) renderIndicator();
    if (isThreadOpen(conversation, parentId)) renderThreadPanel();
  } else if (conversation.id === state.openId) {
    renderMessagesAndIndicator(conversation);
  } else {
    renderSidebar();
  }
}

/** Fetches a thread's history once per subscription (`GET …/messages?thread=ID`), for its count and panel. */
function loadReplies(conversation, parentId) {
  if (!state.api || !state.storesMessages) return;
  const api = state.api;
  conversation.replies.load(parentId, () => api.replies(conversation.id, parentId))?.then((outcome) => {
    if (outcome === 'stale' || state.conversations.get(conversation.id) !== conversation) return;  // signed out, or fetched again
    if (outcome === 'failed') console.warn(`Typewire: the replies to ${parentId} did not load: ${conversation.replies.error(parentId)?.message}`);
    renderTimeline(conversation, parentId);
  });
}

function failed(frame) {
  const own = frame.ref ? findOwn(frame.ref) : null;
  if (frame.code === 'rate_limited' && own?.item.pending) {
    // The server refused this send for now; the same clientMessageId makes the retry safe.
    const retry = { type: 'send', conversation: own.conversation.id, clientMessageId: frame.ref, text: own.item.text };
    if (own.parentId) retry.thread = own.parentId;
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
  closeThread();
  sendTyping(state.emitter.handle(Input.leftConversation, now()));
  state.drafts.set(state.openId, nodes.input.value);
  clearTimeout(state.rosterTimer);
  state.openId = null;
  nodes.chat.dataset.open = 'false';
  nodes.chat.dataset.subscribed = 'false';
  indicator.render(null, null);
  trackReads();
}

function renderOpenConversation() {
  const conversation = state.conversations.get(state.openId);
  if (!conversation) return;
  nodes.chat.dataset.subscribed = String(conversation.subscribed);
  renderChatHeader(nodes.header, conversation, { me: state.me.id, isBot, locale: typingText.locale });
  renderMessagesAndIndicator(conversation);
}

function renderMessagesAndIndicator(conversation) {
  renderMessages(nodes.messages, conversation.timeline, { ...peopleOf(conversation), status: statusLine(conversation) });
  renderIndicator();
  trackReads();
}

/**
 * The line under the user's newest stored message: "Seen by Alice and Bob" once someone has read it, else its
 * ticks' word, "Delivered" or "Sent", in the typing text's language; with its progress (data-progress).
 */
function statusLine(conversation) {
  const items = conversation.timeline.items;
  const own = items.findLast((item) => item.sender === state.me.id && item.id && !item.pending);
  if (!own || !state.storesMessages) return null;
  const positionOf = (id) => items.findIndex((item) => item.id === id);
  const readers = readersOf(own, conversation.marks, positionOf, conversation.readCounts);
  const names = readers?.names?.map(conversation.nameOf);
  const seen = !readers ? null : names ? typingText.seenText(names) : typingText.seenCountText(readers.count);
  const others = [...conversation.participants.keys()].filter((id) => id !== state.me.id);
  const progress = progressOf(own, others, conversation.marks, conversation.delivered, positionOf, conversation.readCounts);
  return { key: own.key, seen, progress, text: seen ?? progressText(typingText.locale, progress) };
}

/** Tells the read tracker what the page shows: the open conversation's newest stored message, on a visible page. */
function trackReads() {
  const conversation = state.storesMessages ? state.conversations.get(state.openId) : undefined;
  const newest = conversation?.subscribed ? conversation.timeline.items.findLast((item) => item.id && !item.pending && !item.streaming) : undefined;
  const page = { conversation: conversation?.id ?? null, messageId: newest?.id ?? null, visible: document.visibilityState === 'visible' };
  sendRead(state.reads.update(page, now()));
}

/**
 * A message of another member reached the page: the server is told it was delivered (at most once a second
 * per timeline). Not on a typing-only server, nor in a group too large to name its readers (no one is told).
 */
function received(conversation, message) {
  if (!state.storesMessages || conversation.readCounts || message.editedAt) return;
  sendDelivered([state.deliveries.received({ conversation: conversation.id, thread: message.thread, messageId: message.id }, now())]);
}

/** Puts due `delivered` frames on the wire, and arms the next deadline. */
function sendDelivered(reports) {
  for (const report of reports) {
    if (report) state.connection?.send({ type: 'delivered', conversation: report.conversation, messageId: report.messageId });
  }
  clearTimeout(state.deliveryTimer);
  const deadline = state.deliveries.nextDeadline;
  if (deadline !== null) state.deliveryTimer = setTimeout(() => sendDelivered(state.deliveries.tick(now())), Math.max(0, deadline - now()) + 1);
}

/** Puts a due `read` on the wire, and arms the tracker's next deadline. */
function sendRead(read) {
  if (read) state.connection?.send({ type: 'read', conversation: read.conversation, messageId: read.messageId });
  clearTimeout(state.readTimer);
  const deadline = state.reads.nextDeadline;
  if (deadline !== null) state.readTimer = setTimeout(() => sendRead(state.reads.tick(now())), Math.max(0, deadline - now()) + 1);
}

/** Who the message views draw, and the Stop of a bot's reply: a `cancel` (the bot, or the server after a grace, ends it). */
function peopleOf(conversation) {
  const stop = (item) => state.connection?.send({ type: 'cancel', conversation: conversation.id, messageId: item.replyId });
  return { me: state.me.id, nameOf: conversation.nameOf, isBot, stop };
}

/** Shows who is active now, and re-renders when the next entry expires. */
function renderIndicator() {
  clearTimeout(state.rosterTimer);
  const conversation = state.conversations.get(state.openId);
  if (!conversation) return;
  const at = now();
  conversation.roster.removeExpired(at);
  // A bot whose reply is streaming shows its cursor instead of an indicator.
  const streaming = conversation.timeline.streamingUsers();
  const typers = conversation.roster.typers(at).filter((t) => !streaming.has(t.userID));
  const total = typers.length + conversation.roster.unlisted;
  indicator.render(typingText.text(typers, total), typingText.accessibilityText(typers, total), typers[0]?.activity);
  // The parents' reply counts and "2 people are replying…", which expire on the same timer.
  conversation.replying.removeExpired(at);
  renderThreadLinks(nodes.messages, (id) => {
    const replying = conversation.replying.count(id, at);
    return {
      replies: conversation.replies.count(id),
      replying: typingText.replyingText(replying),
      replyingLabel: typingText.accessibilityReplyingText(replying),
      open: isThreadOpen(conversation, id),
    };
  });
  const deadlines = [conversation.roster.nextDeadline, conversation.replying.nextDeadline].filter((d) => d !== null);
  if (deadlines.length > 0) state.rosterTimer = setTimeout(renderIndicator, Math.max(0, Math.min(...deadlines) - now()) + 1);
}

function renderSidebar() {
  if (!state.me) return;
  renderConversationList(nodes.list, [...state.conversations.values()], {
    me: state.me.id,
    openId: state.openId,
    onOpen: openConversation,
    isBot,
    onMarkUnread: state.storesMessages ? markUnread : undefined,
  });
}

/**
 * "Mark unread" on a row: the user's mark moves back before the newest message of someone else there; the
 * server's `unread` brings the badge (on every device of theirs), and opening the conversation reads it again.
 */
function markUnread(id) {
  const conversation = state.conversations.get(id);
  const newest = conversation?.timeline.items.findLast((item) => item.id && !item.pending && item.sender !== state.me.id);
  if (!newest || !state.connection?.send({ type: 'markUnread', conversation: id, messageId: newest.id })) return;
  state.reads.markedUnread(id);
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
  if (!state.connection?.send(frame)) state.unsentFrames.push(frame);
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
  const clientMessageId = newClientMessageId();
  conversation.timeline.addPending({ clientMessageId, sender: state.me.id, senderName: state.me.name, text, sentAt: Date.now() });
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

const newClientMessageId = () => crypto.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;

function resizeComposer() {
  fitComposer({ input: nodes.input, send: nodes.send });
}

// ---- the thread panel: one thread of the open conversation --------------------------------------------

/** Whether the panel shows a thread of this conversation (any thread, or the one of `parentId`). */
function isThreadOpen(conversation, parentId = state.thread?.parentId) {
  return state.thread !== null && state.thread.conversation === conversation && state.thread.parentId === parentId;
}

const replyDraftKey = (open) => `${open.conversation.id}/${open.parentId}`;

/** Opens the thread of a stored message of the open conversation in the panel. */
function openThread(parentId) {
  const conversation = state.conversations.get(state.openId);
  const parent = conversation?.timeline.items.find((item) => item.id === parentId);
  if (!parent || !state.storesMessages) return;
  if (!isThreadOpen(conversation, parentId)) {
    closeThread();
    state.thread = new OpenThread({
      conversation, parent, replies: timelineOf(conversation, parentId), me: state.me.id, config: state.config, now,
      send: (frame) => state.connection?.send(frame),
      showTypers: (typers) => panel.renderIndicator(typingText.text(typers), typingText.accessibilityText(typers), typers[0]?.activity),
    });
    panel.show({ title: conversation.title, kind: conversation.kind });
    panel.draft = state.replyDrafts.get(replyDraftKey(state.thread)) ?? '';
    loadReplies(conversation, parentId);
    renderThreadPanel();
    renderIndicator();  // the parent shows its thread is open
  }
  panel.input.focus();
}

/** Closing the panel: its composer's stop goes out at once, its draft stays for later. */
function closeThread() {
  if (!state.thread) return;
  const open = state.thread;
  state.replyDrafts.set(replyDraftKey(open), panel.draft);
  open.close();
  state.thread = null;
  panel.hide();
  if (open.conversation.id === state.openId) renderIndicator();
}

function renderThreadPanel() {
  const open = state.thread;
  if (!open) return;
  const { conversation, parentId } = open;
  // The main timeline's copy is the newest (an edit); the one taken at opening stays if it was paged out.
  open.parent = conversation.timeline.items.find((item) => item.id === parentId) ?? open.parent;
  panel.render({
    parent: open.parent,
    replies: open.replies,
    status: conversation.replies.status(parentId) ?? 'loading',
    people: peopleOf(conversation),
  });
  open.renderIndicator();
}

/** The panel composer's text, sent as a reply in the open thread; false if there is nothing to send. */
function submitReply(text) {
  const open = state.thread;
  if (!open || !hasVisibleCharacter(text)) return false;
  queueSend(open.reply({ clientMessageId: newClientMessageId(), sender: state.me.id, senderName: state.me.name, text, sentAt: Date.now() }));
  state.replyDrafts.delete(replyDraftKey(open));
  renderTimeline(open.conversation, open.parentId);
  return true;
}

nodes.messages.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-thread]');
  if (button) openThread(button.dataset.thread);
});
panel.bind({ onInput: (text) => state.thread?.handle(Input.textChanged(text)), onSubmit: submitReply, onClose: closeThread });

wireComposer(
  { form: nodes.composer, input: nodes.input, send: nodes.send },
  {
    onInput: (text) => {
      if (state.openId) sendTyping(state.emitter.handle(Input.textChanged(text), now()));
    },
    submit,
  },
);
document.addEventListener('visibilitychange', () => {
  trackReads();  // a hidden tab reads nothing
  if (document.visibilityState !== 'hidden') return;
  sendTyping(state.emitter.handle(Input.wentToBackground, now()));
  state.thread?.handle(Input.wentToBackground);
});
// "last seen 5 minutes ago" ages: the open conversation's header is said again each minute.
setInterval(() => {
  const conversation = state.conversations.get(state.openId);
  if (conversation) renderChatHeader(nodes.header, conversation, { me: state.me.id, isBot, locale: typingText.locale });
}, 60_000);
$('switch-user').addEventListener('click', signOut);
$('back').addEventListener('click', () => {
  closeConversation();
  nodes.app.dataset.screen = 'list';
  renderSidebar();
});

renderPicker();
resizeComposer();
if (params.get('user')) signIn(params.get('user'));
