// The page's per-thread count of repliers (ReplyingCounts in Public/js/roster.js): "2 people are
// replying…" on a parent message. The same rules as the roster, counted per thread, on a local clock in
// milliseconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplyingCounts, TypingRoster } from '../../Public/js/roster.js';
import { TypingText } from '../../Public/js/typing-text.js';

/**
 * An `activity` frame built at server time 10 000 ms; each entry `[user, thread, since]` (thread null for
 * the main timeline) lives `ttl` ms from its start.
 */
function update(entries, { ttl = 5000, serverTime = 10000 } = {}) {
  return {
    type: 'activity',
    conversation: 'c1',
    entries: entries.map(([user, thread, since]) => ({
      user, name: user, activity: 'typing', since, expiresAt: since + ttl, ...(thread === null ? {} : { thread }),
    })),
    total: entries.length,
    serverTime,
  };
}

function harness() {
  const h = { now: 500_000, counts: new ReplyingCounts('me', ['me', 'alice', 'bob', 'carol', 'dave']) };
  h.apply = (frame) => h.counts.apply(frame, h.now);
  h.all = () => Object.fromEntries(h.counts.counts(h.now));
  return h;
}

test('counts the people active in each thread, and nothing for the main timeline', () => {
  const h = harness();
  h.apply(update([['alice', '42', 9000], ['bob', '42', 9100], ['carol', '43', 9200], ['dave', null, 9300]]));
  assert.equal(h.counts.count('42', h.now), 2);
  assert.equal(h.counts.count('43', h.now), 1);
  assert.equal(h.counts.count('44', h.now), 0, 'a thread no one writes in');
  assert.deepEqual(h.all(), { 42: 2, 43: 1 }, 'the main timeline is never counted');
});

test('each frame is the whole state: a user missing from it stopped', () => {
  const h = harness();
  h.apply(update([['alice', '42', 9000], ['bob', '42', 9100]]));
  h.apply(update([['bob', '42', 9100]]));
  assert.deepEqual(h.all(), { 42: 1 });
  h.apply(update([]));
  assert.deepEqual(h.all(), {});
  assert.equal(h.counts.nextDeadline, null);
});

test('leaves out the current user, those who are not participants and entries whose activity is none', () => {
  const h = harness();
  const frame = update([['me', '42', 9000], ['mallory', '42', 9000], ['alice', '42', 9000], ['bob', '42', 9100]]);
  frame.entries[3].activity = 'none';
  h.apply(frame);
  assert.deepEqual(h.all(), { 42: 1 });
});

test('counts other activities than typing: a bot thinking in a thread is replying', () => {
  const h = harness();
  const frame = update([['alice', '42', 9000]]);
  frame.entries[0].activity = 'thinking';
  h.apply(frame);
  assert.equal(h.counts.count('42', h.now), 1);
});

test('drops users who leave or go offline, at once and in every thread', () => {
  const h = harness();
  h.apply(update([['alice', '42', 9000], ['alice', '43', 9000], ['bob', '42', 9100]]));
  h.counts.setOnline(false, 'alice');
  assert.deepEqual(h.all(), { 42: 1 });
  h.apply(update([['alice', '42', 9000], ['bob', '42', 9100]]));
  assert.deepEqual(h.all(), { 42: 1 }, 'a stale update does not bring an offline user back');
  h.counts.setOnline(true, 'alice');
  h.apply(update([['alice', '42', 9000], ['bob', '42', 9100]]));
  assert.deepEqual(h.all(), { 42: 2 });
  h.counts.setParticipants(['me', 'alice']);
  assert.deepEqual(h.all(), { 42: 1 }, "a removed participant's entry goes at once");
});

test('entries expire by the local clock, whatever the skew with the server', () => {
  const h = harness();
  h.apply(update([['alice', '42', 1_000_000_000], ['bob', '42', 1_000_002_000]], { serverTime: 1_000_000_000 }));
  assert.equal(h.counts.nextDeadline, h.now + 5000);
  h.now += 4999;
  assert.equal(h.counts.count('42', h.now), 2);
  assert.ok(!h.counts.removeExpired(h.now));
  h.now += 1;
  assert.equal(h.counts.count('42', h.now), 1, 'expired, even before removeExpired');
  assert.ok(h.counts.removeExpired(h.now));
  assert.equal(h.counts.nextDeadline, h.now + 2000);
  h.now += 2000;
  assert.ok(h.counts.removeExpired(h.now));
  assert.deepEqual(h.all(), {});
  assert.equal(h.counts.nextDeadline, null);
});

test('counts one user on two devices once, alive until the later entry expires', () => {
  const h = harness();
  const frame = update([['alice', '42', 9000], ['alice', '42', 9800]]);
  frame.entries[0].expiresAt = 14000;
  frame.entries[1].expiresAt = 11000;
  h.apply(frame);
  assert.equal(h.counts.count('42', h.now), 1);
  h.now += 3000;
  assert.equal(h.counts.count('42', h.now), 1, 'the later expiry keeps her counted');
  h.now += 1000;
  assert.equal(h.counts.count('42', h.now), 0);
});

test("agrees with the thread's own roster, and the parent's words come from TypingText", () => {
  const frame = update([['alice', '42', 9000], ['bob', '42', 9100], ['bob', '42', 9500], ['carol', null, 9200]]);
  const counts = new ReplyingCounts('me', ['me', 'alice', 'bob', 'carol']);
  const roster = new TypingRoster('me', ['me', 'alice', 'bob', 'carol'], '42');
  counts.apply(frame, 0);
  roster.apply(frame, 0);
  assert.equal(counts.count('42', 0), roster.typers(0).length);
  const text = new TypingText();
  assert.equal(text.replyingText(counts.count('42', 0)), '2 people are replying…');
  assert.equal(text.replyingText(counts.count('43', 0)), null, 'no one replying: no text');
});
