// The web demo's token refresh rule: the same as the Swift client's TokenRefresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refreshTime, tokenExpiry } from '../../Public/js/connection.js';

const jwt = (claims) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

test('the expiry is read from the token without its signature', () => {
  assert.equal(tokenExpiry(jwt({ sub: 'alice', exp: 1_700_000_000 })), 1_700_000_000_000);
  assert.equal(tokenExpiry(jwt({ sub: 'alice' })), null);
  assert.equal(tokenExpiry('not-a-token'), null);
  assert.equal(tokenExpiry('a.!!!.b'), null);
});

test('a token is refreshed a quarter of its life ahead, at most five minutes, less jitter', () => {
  const now = 1_000_000_000;
  for (const random of [0, 0.5, 0.999]) {
    const hour = refreshTime(now + 3_600_000, now, () => random) - now;
    assert.ok(hour >= 3_270_000 && hour <= 3_300_000, `${hour}`);
    const short = refreshTime(now + 4000, now, () => random) - now;
    assert.ok(short >= 2600 && short <= 3000, `${short}`);
  }
  assert.equal(refreshTime(now + 2000, now), null, 'too late: reconnect instead');
});
