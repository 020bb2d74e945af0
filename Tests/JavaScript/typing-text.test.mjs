// The web demo's TypingText port against every row of TestVectors/typing-text.json: the same table the
// Swift tests (TypingTextTests) check, so the page and the SDK say the same words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TypingText, LOCALES, localeFor, spanishAnd, arabicPlural } from '../../Public/js/typing-text.js';

const table = JSON.parse(readFileSync(new URL('../../TestVectors/typing-text.json', import.meta.url), 'utf8'));

test('the table has vectors for every locale the page knows', () => {
  assert.ok(table.vectors.length >= 70, `only ${table.vectors.length} vectors`);
  assert.deepEqual(new Set(table.vectors.map((v) => v.locale)), new Set(LOCALES));
});

table.vectors.forEach((vector, index) => {
  const names = vector.typers.map((t) => (t.name === undefined || t.name === null ? 'nil' : JSON.stringify(t.name)));
  test(`vector ${index}: ${vector.locale}/${vector.style} [${names.join(', ')}] → ${vector.text}`, () => {
    const formatter = new TypingText({ style: vector.style, maxNameLength: vector.maxNameLength ?? 15, locale: vector.locale });
    const typers = vector.typers.map((t, i) => ({ userID: `u${i}`, name: t.name ?? null, activity: t.activity, detail: t.detail }));
    assert.equal(formatter.text(typers, vector.total), vector.text);
    assert.equal(formatter.accessibilityText(typers, vector.total), vector.accessibility);
  });
});

table.replying.forEach((vector) => {
  test(`replying: ${vector.locale} ${vector.count} → ${vector.text}`, () => {
    const formatter = new TypingText({ locale: vector.locale });
    assert.equal(formatter.replyingText(vector.count), vector.text);
    assert.equal(formatter.accessibilityReplyingText(vector.count), vector.accessibility);
  });
});

table.seen.forEach((vector) => {
  test(`seen: ${vector.locale} ${JSON.stringify(vector.names ?? vector.count)} → ${vector.text}`, () => {
    const formatter = new TypingText({ locale: vector.locale });
    if (vector.names) {
      assert.equal(formatter.seenText(vector.names), vector.text);
      assert.equal(formatter.accessibilitySeenText(vector.names), vector.accessibility);
    } else {
      assert.equal(formatter.seenCountText(vector.count), vector.text);
    }
  });
});

test('the seen table has names and counts in every locale', () => {
  for (const locale of LOCALES) {
    const rows = table.seen.filter((v) => v.locale === locale);
    const sizes = new Set(rows.filter((v) => v.names).map((v) => v.names.length));
    const counts = new Set(rows.filter((v) => !v.names).map((v) => v.count));
    assert.ok([0, 1, 2, 4].every((n) => sizes.has(n)) && [0, 1, 37].every((n) => counts.has(n)), locale);
  }
});

test('the replying table has none, one and many in every locale', () => {
  for (const locale of LOCALES) {
    const counts = new Set(table.replying.filter((v) => v.locale === locale).map((v) => v.count));
    assert.ok([0, 1, 2].every((n) => counts.has(n)), locale);
  }
});

test('locale identifiers map to their language, unknown ones to null', () => {
  assert.equal(localeFor('fr-CA'), 'fr');
  assert.equal(localeFor('ja_JP'), 'ja');
  assert.equal(localeFor('DE'), 'de');
  assert.equal(localeFor('ar-EG'), 'ar');
  assert.equal(localeFor('pt-BR'), 'pt');
  assert.equal(localeFor('it_IT'), 'it');
  assert.equal(localeFor('ko-KR'), 'ko');
  assert.equal(localeFor('nl-NL'), null);
  assert.equal(new TypingText({ locale: 'nl' }).locale, 'en', 'an unsupported locale falls back to English');
});

test('Chinese is Simplified unless the identifier says Traditional', () => {
  for (const id of ['zh', 'zh-Hans', 'zh-CN', 'zh-SG', 'zh-Hans-CN', 'zh_CN', 'zh-Hans-HK']) assert.equal(localeFor(id), 'zh-Hans', id);
  for (const id of ['zh-Hant', 'zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant-TW', 'zh_TW']) assert.equal(localeFor(id), null, id);
  assert.equal(new TypingText({ locale: 'zh-TW' }).locale, 'en');
});

test("Arabic's six plural categories", () => {
  const categories = { zero: [0], one: [1], two: [2], few: [3, 10, 103, 210], many: [11, 99, 111, 1011], other: [100, 101, 102, 200, 1000] };
  for (const [category, counts] of Object.entries(categories)) {
    for (const n of counts) assert.equal(arabicPlural(n), category, `${n}`);
  }
});

test('names are cut by user-perceived characters, not UTF-16 units', () => {
  const text = new TypingText({ maxNameLength: 4 });
  assert.equal(text.displayName('👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦'), '👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦', 'four family emoji fit in four characters');
  assert.equal(text.displayName('ééééé'), 'ééé…');
  assert.equal(text.displayName(' \u3000 '), null, 'ideographic spaces are blank too');
});

test('Spanish "y" becomes "e" before an /i/ sound only', () => {
  assert.equal(spanishAnd('Isabel'), 'e');
  assert.equal(spanishAnd('Íñigo'), 'e');
  assert.equal(spanishAnd('Hilda'), 'e');
  assert.equal(spanishAnd('Hielo'), 'y');
  assert.equal(spanishAnd('Yolanda'), 'y');
});
