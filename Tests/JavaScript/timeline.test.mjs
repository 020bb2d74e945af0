// The page's message model (Public/js/timeline.js): a send shows at once and is replaced by the stored copy;
// a streamed bot reply becomes one bubble, never two, when the stored reply arrives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Timeline, messageKey, replyMessageId, streamKey } from '../../Public/js/timeline.js';

const message = (fields) => ({ conversation: 'c1', senderName: null, sentAt: 1000, ...fields });

test("a pending send is replaced by the server's copy, not duplicated", () => {
  const thread = new Timeline();
  thread.addPending({ clientMessageId: 'm1', sender: 'alice', senderName: 'Alice', text: 'Hi', sentAt: 5 });
  assert.equal(thread.items[0].pending, true);
  const { isNew } = thread.applyMessage(message({ id: '42', sender: 'alice', text: 'Hi', clientMessageId: 'm1' }));
  assert.equal(isNew, false);
  assert.equal(thread.items.length, 1);
  assert.equal(thread.items[0].pending, false);
  assert.equal(thread.items[0].id, '42');
});

test('a streamed reply grows part by part, then merges with the stored message', () => {
  const thread = new Timeline();
  thread.applyStream({ messageId: 'r1', user: 'clawd', delta: 'Hello', final: false }, 'Clawd', 10);
  thread.applyStream({ messageId: 'r1', user: 'clawd', delta: ' there', final: false }, 'Clawd', 11);
  assert.deepEqual([...thread.streamingUsers()], ['clawd']);
  thread.applyStream({ messageId: 'r1', user: 'clawd', delta: '!', final: true }, 'Clawd', 12);
  assert.equal(thread.items.length, 1);
  assert.equal(thread.items[0].text, 'Hello there!');
  assert.equal(thread.streamingUsers().size, 0, 'the final part ends the streaming');
  const stored = message({ id: '77', sender: 'clawd', senderName: 'Clawd', text: 'Hello there!', clientMessageId: 'stream-r1' });
  assert.equal(messageKey(stored), streamKey('clawd', 'r1'));
  const { isNew } = thread.applyMessage(stored);
  assert.equal(isNew, false);
  assert.equal(thread.items.length, 1, 'one bubble, not two');
  assert.equal(thread.items[0].id, '77');
});

test("a reply's end says how it ended, and a part already applied (by its seq) is not applied twice", () => {
  const thread = new Timeline();
  thread.applyStream({ messageId: 'r3', user: 'clawd', delta: 'Once', final: false, seq: 1, asker: 'alice' }, 'Clawd', 10);
  thread.applyStream({ messageId: 'r3', user: 'clawd', delta: ' upon', final: false, seq: 2 }, 'Clawd', 11);
  thread.applyStream({ messageId: 'r3', user: 'clawd', delta: ' upon', final: false, seq: 2 }, 'Clawd', 11);
  assert.equal(thread.items[0].text, 'Once upon', 'the repeated part is skipped');
  assert.equal(thread.items[0].asker, 'alice');
  assert.equal(thread.items[0].replyId, 'r3');
  thread.applyStream({ messageId: 'r3', user: 'clawd', delta: '', final: true, seq: 3, end: 'cancelled', by: 'alice' }, 'Clawd', 12);
  assert.equal(thread.items[0].streaming, false);
  assert.equal(thread.items[0].end, 'cancelled');
  assert.equal(thread.items[0].endedBy, 'alice');
  thread.applyMessage(message({ id: '80', sender: 'clawd', text: 'Once upon', clientMessageId: 'stream-r3' }));
  assert.equal(thread.items[0].end, 'cancelled', 'the stored reply keeps how it ended');
  thread.applyStream({ messageId: 'r4', user: 'clawd', delta: 'x', final: true }, 'Clawd', 13);
  assert.equal(thread.items[1].end, 'finished', 'a server that names no end means finished');
});

test('a catch-up after a resubscribe replaces the text so far, and the parts it holds are skipped', () => {
  const thread = new Timeline();
  thread.applyStream({ messageId: 'r5', user: 'clawd', delta: 'One', final: false, seq: 1 }, 'Clawd', 10);
  // Offline for parts 2 and 3; the catch-up holds them, then part 3 comes again (held while joining) and part 4 is live.
  thread.applyStream({ messageId: 'r5', user: 'clawd', delta: '', final: false, seq: 3, text: 'One two three' }, 'Clawd', 11);
  thread.applyStream({ messageId: 'r5', user: 'clawd', delta: ' three', final: false, seq: 3 }, 'Clawd', 11);
  thread.applyStream({ messageId: 'r5', user: 'clawd', delta: ' four', final: false, seq: 4 }, 'Clawd', 12);
  assert.equal(thread.items[0].text, 'One two three four', 'no hole, no duplicate');
});

test('the stored reply may arrive before the final part: still one bubble, and no cursor', () => {
  const thread = new Timeline();
  thread.applyStream({ messageId: 'r2', user: 'clawd', delta: 'Hel', final: false }, 'Clawd', 10);
  thread.applyMessage(message({ id: '78', sender: 'clawd', text: 'Hello', clientMessageId: 'stream-r2' }));
  thread.applyStream({ messageId: 'r2', user: 'clawd', delta: 'lo', final: true }, 'Clawd', 11);
  assert.equal(thread.items.length, 1);
  assert.equal(thread.items[0].text, 'Hello', 'the stored text wins');
  assert.equal(thread.items[0].streaming, false);
});

test('an edit updates the message in place', () => {
  const thread = new Timeline();
  thread.applyMessage(message({ id: '1', sender: 'bob', text: 'teh' }));
  thread.applyMessage(message({ id: '1', sender: 'bob', text: 'the', editedAt: 2000 }));
  assert.equal(thread.items.length, 1);
  assert.equal(thread.items[0].text, 'the');
  assert.equal(thread.items[0].editedAt, 2000);
});

test('a new history keeps sends in flight and streaming replies, and drops what it now holds', () => {
  const thread = new Timeline();
  thread.addPending({ clientMessageId: 'm1', sender: 'alice', senderName: 'Alice', text: 'one', sentAt: 1 });
  thread.addPending({ clientMessageId: 'm2', sender: 'alice', senderName: 'Alice', text: 'two', sentAt: 2 });
  thread.applyStream({ messageId: 'r1', user: 'clawd', delta: 'Thinking about it', final: false }, 'Clawd', 3);
  thread.reset([message({ id: '9', sender: 'alice', text: 'one', clientMessageId: 'm1' })]);
  assert.deepEqual(thread.items.map((item) => item.text), ['one', 'two', 'Thinking about it']);
  assert.deepEqual(thread.items.map((item) => item.pending), [false, true, false]);
});

test("a thread's history merges with the live frames that came while it loaded", () => {
  const thread = new Timeline();
  thread.applyMessage(message({ id: '5', sender: 'bob', text: 'live, and in the page', sentAt: 5 }));
  thread.applyMessage(message({ id: '6', sender: 'carol', text: 'edited live', editedAt: 9000, sentAt: 6 }));
  thread.applyMessage(message({ id: '8', sender: 'dave', text: 'newer than the page', sentAt: 8 }));
  thread.addPending({ clientMessageId: 'm1', sender: 'alice', senderName: 'Alice', text: 'travelling', sentAt: 9 });
  thread.applyStream({ messageId: 'r1', user: 'clawd', delta: 'Stream', final: false }, 'Clawd', 10);
  thread.merge([
    message({ id: '3', sender: 'alice', text: 'older', sentAt: 3 }),
    message({ id: '5', sender: 'bob', text: 'live, and in the page', sentAt: 5 }),
    message({ id: '6', sender: 'carol', text: 'before the edit', sentAt: 6 }),
  ]);
  assert.deepEqual(thread.items.map((item) => item.text),
    ['older', 'live, and in the page', 'edited live', 'newer than the page', 'travelling', 'Stream']);
  assert.deepEqual(thread.items.map((item) => item.id), ['3', '5', '6', '8', null, null]);
  assert.deepEqual([...thread.streamingUsers()], ['clawd'], 'a reply still streaming keeps streaming');
  thread.merge([message({ id: '3', sender: 'alice', text: 'older', sentAt: 3 })]);
  assert.equal(thread.items.length, 6, 'loading again adds nothing twice');
});

test('a reply that stops streaming without a final part loses its cursor', () => {
  const thread = new Timeline();
  const { item } = thread.applyStream({ messageId: 'r3', user: 'clawd', delta: 'Hm', final: false }, 'Clawd', 1);
  thread.endStream(item.key);
  assert.equal(thread.streamingUsers().size, 0);
  thread.applyStream({ messageId: 'r3', user: 'clawd', delta: ' late', final: false }, 'Clawd', 2);
  assert.equal(thread.items[0].text, 'Hm', 'parts after the end are ignored');
});

// TestVectors/reply-ids.json: the same table as the Swift tests (ReplyIDTests), so the page and the SDK merge
// a stored reply into its streamed bubble by the same rule.
const replyIds = JSON.parse(readFileSync(new URL('../../TestVectors/reply-ids.json', import.meta.url), 'utf8'));
replyIds.vectors.forEach((vector) => {
  test(`reply id: ${JSON.stringify(vector.clientMessageId)} → ${JSON.stringify(vector.replyMessageId)}`, () => {
    assert.equal(replyMessageId(vector.clientMessageId), vector.replyMessageId);
    if (vector.replyMessageId !== null) {
      assert.equal(streamKey('clawd', vector.replyMessageId), `clawd:${vector.clientMessageId}`, "the stored reply's key is its stream's");
    }
  });
});

// TestVectors/reply-turns.json: the same rows as the Swift tests (MessageTimelineTests), so the page and the SDK
// show a reply's parts, catch-ups and ends alike.
const turns = JSON.parse(readFileSync(new URL('../../TestVectors/reply-turns.json', import.meta.url), 'utf8'));
turns.vectors.forEach((vector) => {
  test(`reply turn: ${vector.name}`, () => {
    const timeline = new Timeline();
    vector.parts.forEach((part, index) => timeline.applyStream({ messageId: 'r', user: 'clawd', ...part }, 'Clawd', index));
    assert.equal(timeline.items.length, 1);
    assert.equal(timeline.items[0].text, vector.text);
    assert.equal(timeline.items[0].streaming, vector.streaming);
    assert.equal(timeline.items[0].end, vector.end);
  });
});
