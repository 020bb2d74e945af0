// The page's read rules (Public/js/reads.js): the same as the Swift SDK's SeenTracker and ReadReporter.
import test from 'node:test';
import assert from 'node:assert/strict';
import { DeliveryReports, ReadTracker, progressOf, readersOf } from '../../Public/js/reads.js';

const shows = (messageId, visible = true) => ({ conversation: 'c1', messageId, visible });

test('the newest message on a visible page for a second is read, once, at most one read a second', () => {
  const reads = new ReadTracker();
  assert.equal(reads.update(shows('m1'), 0), null);
  assert.equal(reads.nextDeadline, 1000);
  assert.equal(reads.tick(999), null);
  assert.deepEqual(reads.tick(1000), { conversation: 'c1', messageId: 'm1' });
  assert.equal(reads.tick(5000), null, 'answered once');
  assert.equal(reads.update(shows('m2'), 1100), null);
  assert.equal(reads.nextDeadline, 2100, 'its own second on screen');
  assert.equal(reads.update(shows('m3'), 1500), null, 'a newer message starts its own second');
  assert.deepEqual(reads.tick(2500), { conversation: 'c1', messageId: 'm3' });
});

test('a hidden page reads nothing; shown again, the second starts over', () => {
  const reads = new ReadTracker();
  reads.update(shows('m1', false), 0);
  assert.equal(reads.nextDeadline, null);
  assert.equal(reads.tick(60_000), null);
  reads.update(shows('m1', true), 60_000);
  assert.equal(reads.tick(60_999), null);
  reads.update(shows('m1', false), 60_500);
  reads.update(shows('m1', true), 61_000);
  assert.equal(reads.tick(61_999), null, 'the second was broken by the hidden spell');
  assert.deepEqual(reads.tick(62_000), { conversation: 'c1', messageId: 'm1' });
});

test('after a dropped connection what is on screen is read again', () => {
  const reads = new ReadTracker();
  reads.update(shows('m1'), 0);
  assert.ok(reads.tick(1000));
  reads.connectionLost();
  assert.deepEqual(reads.update(shows('m1'), 3000), { conversation: 'c1', messageId: 'm1' });
});

test('a conversation marked unread is read again once it shows for a second', () => {
  const reads = new ReadTracker();
  reads.update(shows('m1'), 0);
  assert.ok(reads.tick(1000));
  reads.update({ conversation: 'c2', messageId: 'x1', visible: true }, 2000);  // another conversation opens
  reads.markedUnread('c1');
  assert.equal(reads.update(shows('m1'), 5000), null, 'not before its second');
  assert.deepEqual(reads.tick(6000), { conversation: 'c1', messageId: 'm1' });
});

test('readers are the members whose mark is at the message or past it, in the order they read', () => {
  const order = ['1', '2', '3'];
  const positionOf = (id) => order.indexOf(id);
  const marks = new Map([
    ['bob', { messageId: '3', at: 20 }],
    ['carol', { messageId: '2', at: 10 }],
    ['dave', { messageId: '1', at: 5 }],
    ['alice', { messageId: '3', at: 1 }],
  ]);
  assert.deepEqual(readersOf({ id: '2', sender: 'alice' }, marks, positionOf, null), { names: ['carol', 'bob'] });
  assert.deepEqual(readersOf({ id: '9', sender: 'alice' }, marks, positionOf, null), null, 'not in the timeline: not known');
  const counts = [{ messageId: '3', readers: 37 }];
  assert.deepEqual(readersOf({ id: '3', sender: 'alice' }, marks, positionOf, counts), { count: 37 });
  assert.equal(readersOf({ id: '2', sender: 'alice' }, marks, positionOf, counts), null);
});

test('a message is delivered once on every other member\'s device, read once every one read it (the Swift rule)', () => {
  const order = ['1', '2', '3'];
  const positionOf = (id) => order.indexOf(id);
  const marks = new Map([['bob', { messageId: '1' }]]);
  const delivered = new Map([['bob', { messageId: '2' }], ['carol', { messageId: '3' }]]);
  const progress = (id, others = ['bob', 'carol']) => progressOf({ id }, others, marks, delivered, positionOf, null);
  assert.equal(progress('1', ['bob']), 'read');
  assert.equal(progress('2'), 'delivered');
  assert.equal(progress('3'), 'sent', 'bob\'s device has 2, not 3');
  assert.equal(progress('1'), 'delivered', 'carol received it, bob read it');
  assert.equal(progress('1', []), 'sent', 'no one else');
  assert.equal(progress('9'), 'sent', 'not in the timeline');
  const counts = [{ messageId: '3', readers: 2 }];
  assert.equal(progressOf({ id: '3' }, ['bob', 'carol'], marks, delivered, positionOf, counts), 'read');
  assert.equal(progressOf({ id: '3' }, ['bob', 'carol', 'dave'], marks, delivered, positionOf, counts), 'sent');
});

test('delivered goes at most once a second per timeline, the newest of a second\'s', () => {
  const deliveries = new DeliveryReports();
  assert.deepEqual(deliveries.received({ conversation: 'c1', messageId: '1' }, 0), { conversation: 'c1', messageId: '1' });
  assert.equal(deliveries.received({ conversation: 'c1', messageId: '2' }, 100), null);
  assert.equal(deliveries.received({ conversation: 'c1', messageId: '3' }, 200), null);
  assert.deepEqual(
    deliveries.received({ conversation: 'c1', thread: '1', messageId: '4' }, 300), { conversation: 'c1', messageId: '4' },
    'a thread is a timeline of its own');
  assert.equal(deliveries.nextDeadline, 1000);
  assert.deepEqual(deliveries.tick(999), []);
  assert.deepEqual(deliveries.tick(1000), [{ conversation: 'c1', messageId: '3' }], 'the newest replaced the one before');
  assert.equal(deliveries.nextDeadline, null);
});
