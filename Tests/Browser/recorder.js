// Run in a page of the demo (selenium's execute_script): records, in the order the page changed, when the
// typing indicator hides and when a message with the given text shows, and every text a streaming bubble
// had, and every text the indicator showed (so a state shorter than a WebDriver poll is not missed). Read
// the record from window.typewireRecord.
const [messageText] = arguments;
const record = { events: [], streamed: [], indicated: [] };
window.typewireRecord = record;
const indicator = document.querySelector('[data-testid="typing-indicator"]');
const messages = document.querySelector('[data-testid="messages"]');
let sequence = 0;
let hidden = indicator.dataset.visible !== 'true';
let shown = false;
const look = () => {
  const nowHidden = indicator.dataset.visible !== 'true';
  if (nowHidden && !hidden) record.events.push({ what: 'indicator-hidden', sequence: sequence++, at: performance.now() });
  hidden = nowHidden;
  const text = document.querySelector('[data-testid="typing-text"]').textContent;
  if (!nowHidden && record.indicated.at(-1) !== text) record.indicated.push(text);
  const texts = [...messages.querySelectorAll('[data-testid="message-text"]')].map((node) => node.textContent);
  if (!shown && messageText !== null && texts.includes(messageText)) {
    shown = true;
    record.events.push({ what: 'message-shown', sequence: sequence++, at: performance.now() });
  }
  const streaming = messages.querySelector('[data-streaming="true"] [data-testid="message-text"]');
  if (streaming && record.streamed.at(-1) !== streaming.textContent) record.streamed.push(streaming.textContent);
};
new MutationObserver(look).observe(document.body, {
  subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-visible', 'data-streaming'],
});
