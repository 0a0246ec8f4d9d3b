// A promise-based client for the voxnav server worker: send(msg) resolves with the reply's `ok`
// or rejects with an Error carrying the reply's { status, message }. Tick updates (posted
// without an id) go to onPost.

/**
 * The Error of a failed reply: the worker's message (which starts with the message type
 * already), with `status`.
 */
export function replyError(type, error) {
  const text = error.message.startsWith(`${type}: `) ? error.message : `${type}: ${error.message}`;
  return Object.assign(new Error(text), { status: error.status });
}

export function connectWorker(worker, onPost = () => {}) {
  let nextId = 1;
  const pending = new Map();
  worker.onmessage = (e) => {
    const m = e.data;
    if (m && m.id === undefined && m.type === 'tick') {
      onPost(m);
      return;
    }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(replyError(p.type, m.error));
    else p.resolve(m.ok);
  };
  worker.onerror = (e) => {
    const err = new Error(`worker error: ${e.message || e}`);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  return function send(msg, transfer = []) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, type: msg.type });
      worker.postMessage({ ...msg, id }, transfer);
    });
  };
}

/** The same interface over the pure handlers (Node, tests): send(msg) -> ok, posts to onPost. */
export function connectHandlers(handlers, onPost = () => {}) {
  const state = handlers.createState();
  let nextId = 1;
  return async function send(msg) {
    const { reply, posts } = await handlers.handle(state, { ...msg, id: nextId++ });
    posts.forEach(onPost);
    if (reply.error) throw replyError(msg.type, reply.error);
    return reply.ok;
  };
}
