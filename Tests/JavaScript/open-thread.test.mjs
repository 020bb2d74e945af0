// The thread open in the panel (Public/js/open-thread.js): its composer's frames carry the thread, closing it
// stops the typing at once, a reply ends the typing without a stop frame, and its indicator shows that
// thread's typers only. Its clock and timers are the test's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenThread } from '../../Public/js/open-thread.js';
import { Input } from '../../Public/js/emitter.js';
import { Timeline } from '../../Public/js/timeline.js';
import { TypingRoster } from '../../Public/js/roster.js';

const CONFIG = { refreshInterval: 2000, idleTimeout: 3000 };

/** An `activity` frame at server time 10 000: entries `[user, thread]` (null: the main timeline), 5 s to live. */
const activity = (entries) => ({
  type: 'activity', conversation: 'c1', serverTime: 10_000, total: entries.length,
  entries: entries.map(([user, thread]) => ({ user, name: user[0].toUpperCase() + user.slice(1), activity: 'typing', since: 10_000, expiresAt: 15_000, ...(thread ? { thread } : {}) })),
});

/** A clock that moves only when told, and the timers that go off on it. */
function testClock(start) {
  const clock = { now: start, timers: new Set() };
  clock.set = (run, ms) => {
    const timer = { at: clock.now + ms, run };
    clock.timers.add(timer);
    return timer;
  };
  clock.clear = (timer) => clock.timers.delete(timer);
  clock.tick = (ms) => {
    const end = clock.now + ms;
    for (;;) {
      const due = [...clock.timers].filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      clock.timers.delete(due);
      clock.now = due.at;
      due.run();
    }
    clock.now = end;
  };
  return clock;
}

function harness({ lastActivity = null } = {}) {
  const clock = testClock(1_000_000);
  const participants = new Map(['me', 'alice', 'bob', 'carol'].map((id) => [id, { id }]));
  const roster = new TypingRoster('me', participants.keys());
  roster.setOnline(false, 'carol');
  const conversation = { id: 'c1', participants, roster, lastActivity };
  const sent = [];
  const shown = [];
  const open = new OpenThread({
    conversation, parent: { id: '42', text: 'Hike?' }, replies: new Timeline(), me: 'me', config: CONFIG,
    send: (frame) => sent.push(frame), now: () => clock.now, showTypers: (typers) => shown.push(typers.map((typer) => typer.userID)),
    timers: { set: clock.set, clear: clock.clear },
  });
  return { open, sent, shown, tick: clock.tick, now: () => clock.now };
}

test("the composer's frames carry the thread: a start at once, refreshes, the idle stop", () => {
  const h = harness();
  h.open.handle(Input.textChanged('I can'));
  assert.deepEqual(h.sent, [{ type: 'activity', conversation: 'c1', thread: '42', activity: 'typing' }]);
  h.tick(1000);
  h.open.handle(Input.textChanged('I can bring'));
  h.tick(1001);
  assert.equal(h.sent.length, 2, 'a refresh after refreshInterval');
  assert.deepEqual(h.sent[1], { type: 'activity', conversation: 'c1', thread: '42', activity: 'typing' });
  h.tick(1998);
  assert.equal(h.sent.length, 2, 'no stop before idleTimeout after the last keystroke');
  h.tick(2);
  assert.deepEqual(h.sent.at(-1), { type: 'activity', conversation: 'c1', thread: '42', activity: 'none' }, 'idle: stop');
  const count = h.sent.length;
  h.tick(10_000);
  assert.equal(h.sent.length, count, 'nothing more once stopped');
});

test('closing the panel sends the stop at once, and nothing after', () => {
  const h = harness();
  h.open.handle(Input.textChanged('Maybe'));
  h.open.close();
  assert.deepEqual(h.sent.at(-1), { type: 'activity', conversation: 'c1', thread: '42', activity: 'none' });
  const count = h.sent.length;
  h.tick(10_000);
  assert.equal(h.sent.length, count, 'no refresh or idle stop after closing');
});

test('closing a panel whose composer never started sends nothing', () => {
  const h = harness();
  h.open.close();
  assert.deepEqual(h.sent, []);
});

test('a reply shows pending at once, ends the typing without a stop frame, and is sent to the thread', () => {
  const h = harness();
  h.open.handle(Input.textChanged('Count me in'));
  const frame = h.open.reply({ clientMessageId: 'm1', sender: 'me', senderName: 'Me', text: 'Count me in', sentAt: 5 });
  assert.deepEqual(frame, { type: 'send', conversation: 'c1', clientMessageId: 'm1', text: 'Count me in', thread: '42' });
  assert.deepEqual(h.open.replies.items.map((item) => [item.text, item.pending]), [['Count me in', true]]);
  assert.equal(h.sent.length, 1, 'the start only: the server clears the typing when it stores the reply');
  h.tick(10_000);
  assert.equal(h.sent.length, 1, 'no refresh or idle stop after the reply');
  h.open.handle(Input.textChanged('A'));
  assert.equal(h.sent.length, 2, 'the next keystroke starts again');
});

test("its indicator shows the thread's typers only, from the activity known at opening, and expires them", () => {
  const h = harness({ lastActivity: { frame: activity([['alice', '42'], ['bob', null], ['carol', '42']]), at: 1_000_000 } });
  h.open.renderIndicator();
  assert.deepEqual(h.shown.at(-1), ['alice'], 'not the main timeline (bob) nor an offline user (carol)');
  h.open.roster.apply(activity([['alice', '42'], ['bob', '42'], ['me', '42'], ['bob', '43']]), h.now());
  h.open.renderIndicator();
  assert.deepEqual(h.shown.at(-1), ['alice', 'bob'], 'not oneself');
  h.tick(5001);
  assert.deepEqual(h.shown.at(-1), [], 'drawn again when the entries expire');
});

test("a bot streaming into the thread shows its cursor, not the indicator", () => {
  const h = harness();
  h.open.replies.applyStream({ messageId: 'r1', user: 'alice', delta: 'Hel', final: false }, 'Alice', 1);
  h.open.roster.apply(activity([['alice', '42'], ['bob', '42']]), h.now());
  h.open.renderIndicator();
  assert.deepEqual(h.shown.at(-1), ['bob']);
});
