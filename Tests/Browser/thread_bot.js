// Run in a page of the demo (selenium's execute_async_script): streams a reply into a thread as a bot does,
// over a socket of its own with the bot's demo token: subscribes, sends the first parts (each carrying
// `thread`) and returns; window.finishThreadReply(last) sends the final part with the whole text, and
// window.closeThreadBot() closes the socket.
const [bot, conversation, thread, parts, done] = arguments;

(async () => {
  const { token } = await (await fetch(`/v1/demo/token?user=${encodeURIComponent(bot)}`)).json();
  const socket = new WebSocket(`ws://${location.host}/v1/socket`);
  const inbox = [];
  const waiters = [];
  socket.onmessage = (event) => {
    inbox.push(JSON.parse(event.data));
    for (const waiter of waiters.splice(0)) waiter();
  };
  const next = (matches) => new Promise((resolve) => {
    const look = () => {
      const found = inbox.find(matches);
      if (found) resolve(found);
      else waiters.push(look);
    };
    look();
  });
  const send = (frame) => socket.send(JSON.stringify(frame));
  await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
  send({ type: 'hello', token });
  await next((f) => f.type === 'welcome');
  send({ type: 'subscribe', conversation });
  await next((f) => f.type === 'subscribed');
  const messageId = `thread-reply-${Date.now()}`;
  for (const delta of parts) send({ type: 'stream', conversation, messageId, delta, thread });
  window.finishThreadReply = (last) =>
    send({ type: 'stream', conversation, messageId, delta: last, final: true, text: parts.join('') + last, thread });
  window.closeThreadBot = () => socket.close();
  window.threadBotErrors = () => inbox.filter((f) => f.type === 'error');
})().then(() => done(null), (error) => done(String(error)));
