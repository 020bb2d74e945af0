// Run in a page of the demo (selenium's execute_script) with a thread open in the panel: records, in the
// order the page changed, every text the main indicator, the thread panel's indicator and the parent's
// "… replying…" line showed (so a state shorter than a WebDriver poll is not missed), when the thread's
// indicator and the parent's replying line hid, when a reply with the given text showed in the panel, and
// whether that text ever showed in the main timeline. Read the record from window.typewireThreadRecord.
const [parentId, replyText] = arguments;
const record = { events: [], main: [], thread: [], replying: [], replyInMain: false };
window.typewireThreadRecord = record;
const query = (selector) => document.querySelector(selector);
const texts = (container) => [...container.querySelectorAll('[data-testid="message-text"]')].map((node) => node.textContent);
let sequence = 0;
const event = (what) => record.events.push({ what, sequence: sequence++, at: performance.now() });
const seen = { thread: false, replying: false, reply: false };

/** The visible text of an indicator, or null when it is hidden. */
function shown(prefix) {
  const indicator = query(`[data-testid="${prefix}typing-indicator"]`);
  return indicator.dataset.visible === 'true' ? query(`[data-testid="${prefix}typing-text"]`).textContent : null;
}

/** The parent's replying text in the main timeline, or null when it shows none. */
function replying() {
  const line = query(`[data-testid="messages"] [data-message-id="${parentId}"] [data-testid="message-replying"]`);
  return line && !line.hidden ? line.querySelector('[data-testid="message-replying-text"]').textContent : null;
}

const look = () => {
  const now = { main: shown(''), thread: shown('thread-'), replying: replying() };
  for (const key of ['main', 'thread', 'replying']) {
    if (now[key] !== null && record[key].at(-1) !== now[key]) record[key].push(now[key]);
  }
  if (now.thread !== null) seen.thread = true;
  else if (seen.thread) { seen.thread = false; event('thread-indicator-hidden'); }
  if (now.replying !== null) seen.replying = true;
  else if (seen.replying) { seen.replying = false; event('replying-hidden'); }
  if (replyText !== null) {
    if (!seen.reply && texts(query('[data-testid="thread-messages"]')).includes(replyText)) { seen.reply = true; event('reply-shown'); }
    if (texts(query('[data-testid="messages"]')).includes(replyText)) record.replyInMain = true;
  }
};
look();
new MutationObserver(look).observe(document.body, {
  subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-visible', 'hidden'],
});
