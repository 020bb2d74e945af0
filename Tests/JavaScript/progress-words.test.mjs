// The web demo's words for a message's ticks against the `progress` table of TestVectors/typing-text.json
// (the Swift tests check the same rows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { progressText } from '../../Public/js/progress-words.js';
import { LOCALES } from '../../Public/js/typing-text.js';

const table = JSON.parse(readFileSync(new URL('../../TestVectors/typing-text.json', import.meta.url), 'utf8'));

table.progress.forEach((vector) => {
  test(`progress: ${vector.locale} ${vector.progress} → ${vector.text}`, () => {
    assert.equal(progressText(vector.locale, vector.progress), vector.text);
  });
});

test('the progress table has every step in every locale', () => {
  for (const locale of LOCALES) {
    assert.deepEqual(new Set(table.progress.filter((v) => v.locale === locale).map((v) => v.progress)), new Set(['sent', 'delivered', 'read']), locale);
  }
});

test('a locale it does not know says English', () => {
  assert.equal(progressText('xx', 'delivered'), 'Delivered');
});
