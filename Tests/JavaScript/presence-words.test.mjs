// The web demo's presence words against the `presence` table of TestVectors/typing-text.json (the Swift tests
// check the same rows), and its status rule against the Swift one's edges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { presenceText, presenceStatus } from '../../Public/js/presence-words.js';
import { LOCALES } from '../../Public/js/typing-text.js';

const table = JSON.parse(readFileSync(new URL('../../TestVectors/typing-text.json', import.meta.url), 'utf8'));

table.presence.forEach((vector) => {
  test(`presence: ${vector.locale} ${vector.status} ${vector.count ?? ''} → ${vector.text}`, () => {
    assert.equal(presenceText(vector.locale, { status: vector.status, count: vector.count }), vector.text);
  });
});

test('the presence table has every status in every locale', () => {
  for (const locale of LOCALES) {
    assert.equal(new Set(table.presence.filter((v) => v.locale === locale).map((v) => v.status)).size, 9, locale);
  }
});

test('a time is said in the largest whole unit, then in buckets', () => {
  const now = 1_800_000_000_000;
  const [minute, hour, day] = [60_000, 3_600_000, 86_400_000];
  const at = (ago) => presenceStatus({ online: false, lastSeenAt: now - ago }, now);
  assert.deepEqual(at(59_999), { status: 'just_now' });
  assert.deepEqual(at(minute), { status: 'minutes', count: 1 });
  assert.deepEqual(at(hour - 1), { status: 'minutes', count: 59 });
  assert.deepEqual(at(day - 1), { status: 'hours', count: 23 });
  assert.deepEqual(at(7 * day - 1), { status: 'days', count: 6 });
  assert.deepEqual(at(7 * day), { status: 'within_week' });
  assert.deepEqual(at(8 * day), { status: 'within_month' });
  assert.deepEqual(at(31 * day), { status: 'long_ago' });
  assert.deepEqual(at(-hour), { status: 'just_now' }, 'a device clock behind the server\'s');
  assert.deepEqual(presenceStatus({ online: true, lastSeenAt: now }, now), { status: 'online' });
  assert.deepEqual(presenceStatus({ online: false, lastSeen: 'within_week' }, now), { status: 'within_week' });
  assert.equal(presenceStatus({ online: false }, now), null);
});

test('a locale Typewire does not have says English', () => {
  assert.equal(presenceText('sv', { status: 'online' }), 'online');
});
