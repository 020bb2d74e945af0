// Run in a page of the demo (pages.protocol_script): streams a reply into a thread as a bot does,
// over a socket of its own with the bot's demo token: subscribes, sends the first parts (each carrying
// `thread`) and returns; window.finishThreadReply(last) sends the final part with the whole text, and
// window.closeThreadBot() closes the socket.
const [bot, conversation, thread, parts, done] = arguments;

(async () => {
  const { socket, inbox, send } = await openSubscribedSocket(bot, conversation);
  const messageId = `thread-reply-${Date.now()}`;
  for (const delta of parts) send({ type: 'stream', conversation, messageId, delta, thread });
  window.finishThreadReply = (last) =>
    send({ type: 'stream', conversation, messageId, delta: last, final: true, text: parts.join('') + last, thread });
  window.closeThreadBot = () => socket.close();
  window.threadBotErrors = () => inbox.filter((f) => f.type === 'error');
})().then(() => done(null), (error) => done(String(error)));
