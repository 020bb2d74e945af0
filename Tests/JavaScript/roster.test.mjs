// The page's receiver machine (Public/js/roster.js) against the rules of TypewireCore's TypingRoster: the
// same cases as Tests/TypewireCoreTests/Roster/TypingRosterTests.swift, on a local clock in milliseconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TypingRoster } from '../../Public/js/roster.js';

const capitalized = (user) => user[0].toUpperCase() + user.slice(1);

/** An `activity` frame built at server time 10 000 ms, entries living `ttl` ms from their start. */
function update(users, { ttl = 5000, serverTime = 10000, total } = {}) {
  return {
    type: 'activity',
    conversation: 'c1',
    entries: users.map(([user, since]) => ({ user, name: capitalized(user), activity: 'typing', since, expiresAt: since + ttl })),
    total: total ?? users.length,
    serverTime,
  };
}

function harness() {
  const h = { now: 500_000, roster: new TypingRoster('me', ['me', 'alice', 'bob', 'carol', 'dave']) };
  h.apply = (frame) => h.roster.apply(frame, h.now);
  h.shown = () => h.roster.typers(h.now).map((t) => t.userID);
  return h;
}

test("applies the server's state: each frame is the whole state", () => {
  const h = harness();
  h.apply(update([['alice', 9000], ['bob', 9500]]));
  assert.deepEqual(h.shown(), ['alice', 'bob']);
  assert.equal(h.roster.typers(h.now)[0].name, 'Alice');
  h.apply(update([['bob', 9500]]));
  assert.deepEqual(h.shown(), ['bob'], 'a user missing from the update stopped');
  h.apply(update([]));
  assert.deepEqual(h.shown(), []);
});

test('drops the current user', () => {
  const h = harness();
  h.apply(update([['me', 9000], ['alice', 9000]]));
  assert.deepEqual(h.shown(), ['alice']);
});

test('drops users who are not participants', () => {
  const h = harness();
  h.apply(update([['mallory', 9000], ['alice', 9100]]));
  assert.deepEqual(h.shown(), ['alice']);
  h.roster.setParticipants(['me', 'bob']);
  assert.deepEqual(h.shown(), [], "a removed participant's entry goes at once");
  h.apply(update([['alice', 9100], ['bob', 9200]]));
  assert.deepEqual(h.shown(), ['bob']);
});

test('drops users known to be offline', () => {
  const h = harness();
  h.apply(update([['alice', 9000], ['bob', 9100]]));
  h.roster.setOnline(false, 'alice');
  assert.deepEqual(h.shown(), ['bob']);
  h.apply(update([['alice', 9000], ['bob', 9100]]));
  assert.deepEqual(h.shown(), ['bob'], 'a stale update does not bring an offline user back');
  h.roster.setOnline(true, 'alice');
  h.apply(update([['alice', 9000], ['bob', 9100]]));
  assert.deepEqual(h.shown(), ['bob', 'alice']);
});

test('entries expire by the local clock even without a stop', () => {
  const h = harness();
  // Alice's entry has 4 s left (expires 14 000, server now 10 000); Bob's 1 s.
  h.apply(update([['alice', 9000], ['bob', 6000]]));
  assert.equal(h.roster.nextDeadline, h.now + 1000);
  h.now += 999;
  assert.deepEqual(h.shown(), ['bob', 'alice']);
  h.now += 1;
  assert.deepEqual(h.shown(), ['alice'], "Bob's entry is gone exactly at its expiry");
  assert.ok(h.roster.removeExpired(h.now));
  assert.equal(h.roster.nextDeadline, h.now + 3000);
  h.now += 3000;
  assert.deepEqual(h.shown(), []);
  assert.ok(h.roster.removeExpired(h.now));
  assert.equal(h.roster.nextDeadline, null);
  assert.ok(!h.roster.removeExpired(h.now));
});

test('expiry ignores skew between the server and the local clock', () => {
  const h = harness();
  h.apply(update([['alice', 1_000_000_000]], { serverTime: 1_000_000_000 }));
  h.now += 4999;
  assert.deepEqual(h.shown(), ['alice']);
  h.now += 1;
  assert.deepEqual(h.shown(), []);
});

test('keeps a stable order', () => {
  const h = harness();
  h.apply(update([['bob', 9500], ['alice', 9000]]));
  assert.deepEqual(h.shown(), ['alice', 'bob'], 'newcomers in the order they started');
  h.apply(update([['bob', 9500], ['carol', 9900], ['alice', 9950]]));
  assert.deepEqual(h.shown(), ['alice', 'bob', 'carol'], 'a refresh keeps her place');
  h.apply(update([['carol', 9900], ['dave', 9990], ['bob', 9500]]));
  assert.deepEqual(h.shown(), ['bob', 'carol', 'dave']);
});

test('newcomers who started in the same millisecond are ordered by user id', () => {
  const h = harness();
  h.apply(update([['dave', 9000], ['bob', 9000], ['carol', 9000], ['alice', 9000]]));
  assert.deepEqual(h.shown(), ['alice', 'bob', 'carol', 'dave']);
});

test('counts one user on two devices once: latest activity, latest expiry', () => {
  const h = harness();
  const frame = update([['alice', 9000], ['alice', 9800]]);
  frame.entries[0].expiresAt = 14000;
  frame.entries[1].expiresAt = 11000;
  frame.entries[1].activity = 'recording';
  h.apply(frame);
  assert.deepEqual(h.shown(), ['alice']);
  assert.equal(h.roster.typers(h.now)[0].activity, 'recording', 'the latest activity shows');
  h.now += 2000;
  assert.deepEqual(h.shown(), ['alice'], 'the later expiry keeps her shown');
  h.now += 2000;
  assert.deepEqual(h.shown(), []);
});

test("ignores entries whose activity is none, and keeps a tool's detail", () => {
  const h = harness();
  const frame = update([['alice', 9000], ['bob', 9100]]);
  frame.entries[0].activity = 'none';
  frame.entries[1].activity = 'tool';
  frame.entries[1].detail = 'web_search';
  h.apply(frame);
  assert.deepEqual(h.roster.typers(h.now), [{ userID: 'bob', name: 'Bob', activity: 'tool', detail: 'web_search' }]);
});

test('remembers how many active members the server counted but did not list', () => {
  const h = harness();
  h.apply(update([['alice', 9000], ['bob', 9100]], { total: 5 }));
  assert.equal(h.roster.unlisted, 3);
  h.apply(update([['alice', 9000]]));
  assert.equal(h.roster.unlisted, 0);
});

test('a user listed in several threads is counted once, not again as unlisted', () => {
  const h = harness();
  // Listed: alice in three timelines and bob; counted: them and one more.
  const frame = update([['alice', 9000], ['alice', 9000], ['alice', 9000], ['bob', 9100]], { total: 3 });
  frame.entries[1].thread = 't1';
  frame.entries[2].thread = 't2';
  h.apply(frame);
  assert.equal(h.roster.unlisted, 1);
});

test('each timeline shows its own typers: the main one no thread, a thread only its own', () => {
  const frame = update([['alice', 9000], ['bob', 9100], ['carol', 9200]]);
  frame.entries[1].thread = '42';
  frame.entries[2].thread = '43';
  const main = new TypingRoster('me', ['me', 'alice', 'bob', 'carol']);
  main.apply(frame, 500_000);
  assert.deepEqual(main.typers(500_000).map((t) => t.userID), ['alice']);
  const thread = new TypingRoster('me', ['me', 'alice', 'bob', 'carol'], '42');
  thread.apply(frame, 500_000);
  assert.deepEqual(thread.typers(500_000).map((t) => t.userID), ['bob']);
});
