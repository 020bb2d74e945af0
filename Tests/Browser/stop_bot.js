// Run in a page of the demo (pages.protocol_script): a bot that honours Stop, over a socket of its own with
// the bot's demo token. It streams the first parts of a reply answering `asker` and returns; when a
// member's `cancel` for the reply comes, it ends the reply as stopped and keeps that `cancel` in
// window.stopBot.cancel. window.stopBot.close() closes the socket.
const [bot, conversation, asker, parts, done] = arguments;

(async () => {
  const { socket, next, send } = await openSubscribedSocket(bot, conversation);
  const messageId = `stop-reply-${Date.now()}`;
  for (const delta of parts) send({ type: 'stream', conversation, messageId, delta, asker });
  window.stopBot = { messageId, cancel: null, close: () => socket.close() };
  next((f) => f.type === 'cancel' && f.messageId === messageId).then((cancel) => {
    window.stopBot.cancel = cancel;
    send({ type: 'stream', conversation, messageId, delta: '', final: true, end: 'cancelled' });
  });
})().then(() => done(null), (error) => done(String(error)));
