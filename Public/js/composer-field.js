// The message field and its form, as the conversation's composer and the thread panel's both use them.
import { hasVisibleCharacter } from './emitter.js';

/** Grows `input` with its text (up to 160 px) and enables `send` when there is something to send. */
export function fitComposer({ input, send }) {
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight + 2, 160)}px`;
  send.disabled = !hasVisibleCharacter(input.value);
}

/**
 * Wires a composer (`form`, its `input` and its `send` button): after each change of the text the field is
 * fitted and `onInput(text)` called; Enter without Shift (not while an input method composes) and the form's
 * submit call `submit()`, the latter then giving the field the focus back.
 */
export function wireComposer(composer, { onInput, submit }) {
  const { form, input } = composer;
  input.addEventListener('input', () => {
    fitComposer(composer);
    onInput(input.value);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
    input.focus();
  });
}
