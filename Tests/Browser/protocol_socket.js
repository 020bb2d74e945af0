// Put before the scripts that run in a page of the demo (selenium's execute_async_script) and speak the
// protocol over sockets of their own (pages.protocol_script): one socket, said hello to and subscribed.

/**
 * Opens a socket as `user` with the demo's token, says hello and subscribes it to `conversation`.
 * `next(matches)` waits for the first frame received that matches and takes it out of `inbox`.
 */
async function openSubscribedSocket(user, conversation) {
  const { token } = await (await fetch(`/v1/demo/token?user=${encodeURIComponent(user)}`)).json();
  const socket = new WebSocket(`ws://${location.host}/v1/socket`);
  const inbox = [];
  const waiters = [];
  socket.onmessage = (event) => {
    inbox.push(JSON.parse(event.data));
    for (const waiter of waiters.splice(0)) waiter();
  };
  const next = (matches) => new Promise((resolve) => {
    const look = () => {
      const index = inbox.findIndex(matches);
      if (index >= 0) resolve(inbox.splice(index, 1)[0]);
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
  return { socket, inbox, next, send };
}
