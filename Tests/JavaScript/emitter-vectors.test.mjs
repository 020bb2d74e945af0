// The web demo's TypingEmitter port against every vector of TestVectors/emitter.json: the same table the
// Swift tests (EmitterVectorsTests) check, so the page and the SDK send the same frames.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TypingEmitter, Input } from '../../Public/js/emitter.js';

const table = JSON.parse(readFileSync(new URL('../../TestVectors/emitter.json', import.meta.url), 'utf8'));

test('the table has vectors', () => assert.ok(table.vectors.length >= 8));

for (const vector of table.vectors) {
  test(vector.name, () => {
    const emitter = new TypingEmitter({ refreshInterval: vector.refreshInterval, idleTimeout: vector.idleTimeout });
    vector.steps.forEach((step, index) => {
      const place = `step ${index} at ${step.at} ms: ${step.input}`;
      let frame;
      if (step.input === 'tick') {
        frame = emitter.tick(step.at);
      } else {
        const input = step.input === 'textChanged' ? Input.textChanged(step.text) : Input[step.input];
        assert.ok(input, `${place}: no such input`);
        frame = emitter.handle(input, step.at);
      }
      assert.equal(frame, step.frame, place);
      if ('nextDeadline' in step) assert.equal(emitter.nextDeadline, step.nextDeadline, `${place}: next deadline`);
    });
  });
}
