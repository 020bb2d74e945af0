// Run in a page of the demo (pages.protocol_script): opens one socket per user, as any client of
// the protocol would, subscribes each to the conversation and starts its typing, one after the other, so
// the server orders them as listed. A socket is not sent the update of its own typing, so a watcher (a
// second socket of the first user) waits for each typer's entry before the next starts. The sockets
// refresh their typing until closeProtocolTypers() runs.
// Arguments: the users, the conversation and, optionally, the thread (a parent message's id) to type in.
const [users, conversation] = arguments;
const thread = arguments.length > 3 ? arguments[2] : null;
const done = arguments[arguments.length - 1];
const typing = thread === null ? { type: 'activity', conversation, activity: 'typing' } : { type: 'activity', conversation, activity: 'typing', thread };

async function startTyper(user, watcher) {
  const { socket, send } = await openSubscribedSocket(user, conversation);
  send(typing);
  await watcher.next((f) => f.type === 'activity' && f.entries.some((e) => e.user === user && (e.thread ?? null) === thread));
  const refresh = setInterval(() => send(typing), 2000);
  return { socket, refresh };
}

(async () => {
  window.protocolTypers = window.protocolTypers ?? [];
  const watcher = await openSubscribedSocket(users[0], conversation);
  window.protocolTypers.push({ socket: watcher.socket, refresh: null });
  for (const user of users) window.protocolTypers.push(await startTyper(user, watcher));
  window.closeProtocolTypers = () => {
    for (const typer of window.protocolTypers.splice(0)) {
      clearInterval(typer.refresh);
      typer.socket.close();
    }
  };
})().then(() => done(null), (error) => done(String(error)));
