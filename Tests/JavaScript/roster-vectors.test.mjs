// The web demo's TypingRoster port (and, for the main timeline, its ReplyingCounts) against every vector of
// TestVectors/roster.json: the same table the Swift tests (RosterVectorsTests) check, so the page and the
// SDK show the same typers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TypingRoster, ReplyingCounts } from '../../Public/js/roster.js';

const table = JSON.parse(readFileSync(new URL('../../TestVectors/roster.json', import.meta.url), 'utf8'));

test('the table has vectors', () => assert.ok(table.vectors.length >= 8));

for (const vector of table.vectors) {
  test(vector.name, () => {
    const roster = new TypingRoster(vector.currentUser, vector.participants, vector.thread);
    // The main timeline's view counts each thread's members too; a thread's view does not.
    const replying = vector.thread === null ? new ReplyingCounts(vector.currentUser, vector.participants) : null;
    const views = [roster, replying].filter(Boolean);
    vector.steps.forEach((step, index) => {
      const place = `step ${index} at ${step.at} ms`;
      if (step.apply) for (const view of views) view.apply(step.apply, step.at);
      if (step.setOnline) for (const view of views) view.setOnline(step.setOnline.online, step.setOnline.user);
      if (step.setParticipants) for (const view of views) view.setParticipants(step.setParticipants);
      if (step.removeExpired) {
        const changed = views.map((view) => view.removeExpired(step.at)).some(Boolean);
        if ('changed' in step) assert.equal(changed, step.changed, `${place}: changed`);
      }
      if (step.typers) {
        const shown = roster.typers(step.at).map((typer) => ({ user: typer.userID, activity: typer.activity }));
        assert.deepEqual(shown, step.typers, place);
      }
      if ('unlisted' in step) assert.equal(roster.unlisted, step.unlisted, `${place}: unlisted`);
      if (step.replying) assert.deepEqual(Object.fromEntries(replying?.counts(step.at) ?? []), step.replying, `${place}: replying`);
      if ('nextDeadline' in step) {
        const deadlines = views.map((view) => view.nextDeadline).filter((deadline) => deadline !== null);
        assert.equal(deadlines.length === 0 ? null : Math.min(...deadlines), step.nextDeadline, `${place}: next deadline`);
      }
    });
  });
}
