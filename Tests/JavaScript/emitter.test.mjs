// The page's sender machine (Public/js/emitter.js) against the rules of TypewireCore's TypingEmitter: the
// same cases as Tests/TypewireCoreTests/Emitter/TypingEmitterTests.swift, with time handed in as numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TypingEmitter, Input, frameActivity, hasVisibleCharacter } from '../../Public/js/emitter.js';

/** An emitter, a clock in milliseconds, and the shell's loop: tick at each deadline as time passes. */
function harness(configuration = { refreshInterval: 3000, idleTimeout: 3000 }) {
  const h = {
    now: 0,
    emitter: new TypingEmitter(configuration),
    send(input) {
      return h.emitter.handle(input, h.now);
    },
    wait(duration) {
      const end = h.now + duration;
      const frames = [];
      let deadline;
      while ((deadline = h.emitter.nextDeadline) !== null && deadline <= end) {
        h.now = Math.max(deadline, h.now);
        const frame = h.emitter.tick(h.now);
        if (frame) frames.push(frame);
        else if (h.emitter.nextDeadline === deadline) assert.fail('the deadline passed but tick did nothing: the shell would spin');
      }
      h.now = end;
      return frames;
    },
  };
  return h;
}

test('the first non-empty change starts at once', () => {
  const h = harness();
  assert.equal(h.send(Input.textChanged('H')), 'start');
  assert.ok(h.emitter.isAnnounced);
});

test('whitespace-only text counts as empty', () => {
  const h = harness();
  assert.equal(h.send(Input.textChanged('   ')), null);
  assert.equal(h.send(Input.textChanged('\n\t\u00A0')), null);
  assert.equal(h.emitter.nextDeadline, null);
  assert.equal(h.send(Input.textChanged(' a')), 'start');
  h.wait(100);
  assert.equal(h.send(Input.textChanged('  ')), 'stop', 'text reduced to whitespace stops at once');
  assert.ok(!hasVisibleCharacter('\u3000\u2028'));
  assert.ok(hasVisibleCharacter('\u3000x'));
});

test('at most one refresh per interval while keys come fast', () => {
  const h = harness();
  const frames = [];
  let text = '';
  for (let i = 0; i < 100; i += 1) {
    text += 'x';
    const frame = h.send(Input.textChanged(text));
    if (frame) frames.push(frame);
    frames.push(...h.wait(100));
  }
  assert.equal(frames[0], 'start');
  assert.equal(frames.filter((f) => f === 'refresh').length, 3, 'refreshes at 3, 6 and 9 s');
  assert.ok(!frames.includes('stop'));
});

test('refreshes keep going while keys pause within the idle timeout; the idle stop wins a tie', () => {
  const h = harness({ refreshInterval: 1000, idleTimeout: 3000 });
  assert.equal(h.send(Input.textChanged('a')), 'start');
  assert.deepEqual(h.wait(2999), ['refresh', 'refresh']);
  assert.deepEqual(h.wait(1), ['stop']);
});

test('ticking early or often is harmless', () => {
  const h = harness();
  const frames = [];
  let text = '';
  for (let step = 0; step < 100; step += 1) {
    if (step % 2 === 0) {
      text += 'x';
      const frame = h.send(Input.textChanged(text));
      if (frame) frames.push(frame);
    }
    const frame = h.emitter.tick(h.now);
    if (frame) frames.push(frame);
    h.now += 100;
  }
  assert.deepEqual(frames, ['start', 'refresh', 'refresh', 'refresh'], 'refreshes at 3, 6 and 9 s only');
});

test('keystrokes add no frames of their own', () => {
  const h = harness();
  assert.equal(h.send(Input.textChanged('a')), 'start');
  for (let length = 2; length <= 50; length += 1) assert.equal(h.send(Input.textChanged('a'.repeat(length))), null);
});

test('a keystroke inside the interval is refreshed when the interval ends', () => {
  const h = harness();
  assert.equal(h.send(Input.textChanged('a')), 'start');
  h.wait(2000);
  assert.equal(h.send(Input.textChanged('ab')), null, 'throttled');
  assert.equal(h.emitter.nextDeadline, h.now + 1000);
  assert.deepEqual(h.wait(1000), ['refresh']);
});

test('no keystroke for the idle timeout stops', () => {
  const h = harness();
  assert.equal(h.send(Input.textChanged('a')), 'start');
  assert.deepEqual(h.wait(2999), []);
  assert.deepEqual(h.wait(1), ['stop']);
  assert.ok(!h.emitter.isAnnounced);
  assert.equal(h.emitter.nextDeadline, null);
});

test('the idle timeout counts from the last keystroke', () => {
  const h = harness();
  h.send(Input.textChanged('a'));
  h.wait(2000);
  h.send(Input.textChanged('ab'));
  assert.deepEqual(h.wait(2900), ['refresh'], 'no stop 4.9 s after the start');
  assert.deepEqual(h.wait(100), ['stop']);
});

for (const name of ['messageSent', 'inputCleared', 'leftConversation', 'wentToBackground']) {
  test(`${name} stops at once, and nothing follows`, () => {
    const h = harness();
    h.send(Input.textChanged('hello'));
    h.wait(500);
    assert.equal(h.send(Input[name]), 'stop');
    assert.equal(h.emitter.nextDeadline, null);
    assert.deepEqual(h.wait(10000), []);
  });

  test(`${name} sends nothing without a start`, () => {
    const h = harness();
    assert.equal(h.send(Input[name]), null);
    h.send(Input.textChanged('a'));
    h.wait(4000); // the idle stop already went out
    assert.equal(h.send(Input[name]), null);
  });
}

test('the next keystroke after a stop starts again at once', () => {
  const h = harness();
  h.send(Input.textChanged('a'));
  h.wait(500);
  assert.equal(h.send(Input.messageSent), 'stop');
  assert.equal(h.send(Input.textChanged('b')), 'start', 'no throttle after a stop');
  assert.deepEqual(h.wait(4000), ['stop']);
  assert.equal(h.send(Input.textChanged('bc')), 'start', 'no throttle after an idle stop');
});

test('a lost connection sends nothing; its return announces typing again', () => {
  const h = harness();
  h.send(Input.textChanged('a'));
  assert.equal(h.send(Input.connectionLost), null);
  assert.equal(h.send(Input.textChanged('ab')), null, 'nothing goes out while offline');
  assert.equal(h.emitter.nextDeadline, null);
  h.wait(1000);
  assert.equal(h.send(Input.connectionRestored), 'start', 'the server forgot the state: announce again');
  assert.deepEqual(h.wait(2000), ['stop'], 'idle stop 3 s after the last keystroke');
});

test('a connection that returns after typing ended sends nothing', () => {
  const h = harness();
  h.send(Input.textChanged('a'));
  h.send(Input.connectionLost);
  h.wait(5000);
  assert.equal(h.send(Input.connectionRestored), null);
  h.send(Input.textChanged('ab'));
  h.send(Input.messageSent);
  h.send(Input.connectionLost);
  assert.equal(h.send(Input.connectionRestored), null, 'a sent draft is not typing');
});

test('the intervals are configuration (the server sends them in welcome)', () => {
  const h = harness({ refreshInterval: 500, idleTimeout: 1000 });
  const frames = [];
  for (let i = 0; i < 10; i += 1) {
    const frame = h.send(Input.textChanged('x'.repeat(i + 1)));
    if (frame) frames.push(frame);
    frames.push(...h.wait(100));
  }
  frames.push(...h.wait(2000));
  assert.deepEqual(frames, ['start', 'refresh', 'refresh', 'refresh', 'stop']);
});

test('the defaults are 2 s refresh and 3 s idle, as in Swift', () => {
  const emitter = new TypingEmitter();
  assert.equal(emitter.refreshInterval, 2000);
  assert.equal(emitter.idleTimeout, 3000);
});

test('frames map to wire activities', () => {
  assert.equal(frameActivity('start'), 'typing');
  assert.equal(frameActivity('refresh'), 'typing');
  assert.equal(frameActivity('stop'), 'none');
  assert.throws(() => new TypingEmitter().handle({ type: 'nonsense' }, 0), TypeError);
});
