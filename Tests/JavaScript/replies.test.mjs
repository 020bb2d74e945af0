// The replies the page knows of, per thread (Public/js/replies.js): a thread's history is fetched once per
// subscription, merged with the replies that came live, and fetched again after a failure or a new
// subscription.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Replies } from '../../Public/js/replies.js';

const reply = (id, text, fields = {}) => ({ conversation: 'c1', id, sender: 'bob', senderName: 'Bob', text, sentAt: Number(id), thread: '42', ...fields });

/** A fetch the test answers by hand: `pending` holds each call's parent id and its resolve/reject. */
function manualFetch() {
  const pending = [];
  const fetchPage = (parentId) => new Promise((resolve, reject) => pending.push({ parentId, resolve, reject }));
  return { pending, fetchPage };
}

test('a thread is empty until something is known of it, and counts what is known', () => {
  const replies = new Replies();
  assert.equal(replies.count('42'), 0);
  assert.equal(replies.status('42'), null);
  replies.of('42').applyMessage(reply('50', 'live'));
  replies.of('42').addPending({ clientMessageId: 'm1', sender: 'me', senderName: 'Me', text: 'travelling', sentAt: 60 });
  assert.equal(replies.count('42'), 2);
  assert.equal(replies.count('43'), 0, 'other threads are apart');
  assert.deepEqual([...replies.entries()].map(([id]) => id), ['42']);
});

test('the history is fetched once and merged with the replies that came live while it loaded', async () => {
  const replies = new Replies();
  const { pending, fetchPage } = manualFetch();
  const loading = replies.load('42', fetchPage);
  assert.equal(replies.status('42'), 'loading');
  assert.equal(replies.load('42', fetchPage), null, 'no second fetch while one is under way');
  await Promise.resolve();
  assert.equal(pending.length, 1);
  replies.of('42').applyMessage(reply('53', 'live, after the page was read'));
  pending[0].resolve([reply('51', 'first'), reply('52', 'second')]);
  assert.equal(await loading, 'done');
  assert.equal(replies.status('42'), 'done');
  assert.deepEqual(replies.of('42').items.map((item) => item.text), ['first', 'second', 'live, after the page was read']);
  assert.equal(replies.load('42', fetchPage), null, 'fetched: live frames keep it up to date');
});

test('a failed fetch is told, and tried again the next time', async () => {
  const replies = new Replies();
  const failure = new Error('503 Service Unavailable');
  assert.equal(await replies.load('42', () => Promise.reject(failure)), 'failed');
  assert.equal(replies.status('42'), 'failed');
  assert.equal(replies.error('42'), failure);
  assert.equal(await replies.load('42', async () => [reply('51', 'first')]), 'done');
  assert.equal(replies.count('42'), 1);
  assert.equal(await replies.load('43', () => { throw failure; }), 'failed', 'a fetch that throws at once fails the same way');
});

test('a new subscription fetches again, and drops a page read before it', async () => {
  const replies = new Replies();
  const { pending, fetchPage } = manualFetch();
  const before = replies.load('42', fetchPage);
  await Promise.resolve();
  replies.forget();
  assert.equal(replies.status('42'), null);
  const after = replies.load('42', fetchPage);
  assert.notEqual(after, null);
  await Promise.resolve();
  pending[0].resolve([reply('51', 'read before the new subscription')]);
  assert.equal(await before, 'stale');
  assert.equal(replies.count('42'), 0, 'the stale page is dropped');
  pending[1].resolve([reply('51', 'read before the new subscription'), reply('52', 'sent while away')]);
  assert.equal(await after, 'done');
  assert.deepEqual(replies.of('42').items.map((item) => item.id), ['51', '52']);
});
