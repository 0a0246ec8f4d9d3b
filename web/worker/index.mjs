// voxnav server worker - the thin adapter. Start it as a module worker:
//
//   const worker = new Worker(new URL('voxnav/worker', import.meta.url), { type: 'module' });
//   worker.postMessage({ id: 1, type: 'init' });
//
// Inside a Worker (a browser Worker, or a Node worker_threads thread) importing this module
// installs the message handler; anywhere else it only exports the pieces (for a host that runs
// the handlers inside its own worker: see ./handlers.mjs).
import { createState, handle, transferList, MESSAGE_TYPES } from './handlers.mjs';

export { createState, handle, transferList, MESSAGE_TYPES };

/**
 * Installs the handlers on a port-like object: `post(message, transfer)` sends, and the returned
 * function is called with each incoming message. Messages are handled one at a time, in order;
 * each message's posts are sent before its reply.
 */
export function connect(post) {
  const state = createState();
  let chain = Promise.resolve();
  return (msg) => {
    chain = chain.then(async () => {
      const { reply, posts } = await handle(state, msg);
      for (const p of posts) post(p, transferList(p));
      post(reply, transferList(reply));
    });
    return chain;
  };
}

/** Installs the adapter in a browser (dedicated) Worker global scope. */
export function installWorker(scope = globalThis) {
  const onMessage = connect((m, transfer) => scope.postMessage(m, transfer));
  scope.onmessage = (e) => onMessage(e.data);
}

const inBrowserWorker = typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope;
if (inBrowserWorker) {
  installWorker(globalThis);
} else if (typeof process === 'object' && process.versions && process.versions.node) {
  // No top-level await (a bundler's worker output may be a classic script) and no Node built-in
  // named where a bundler would try to resolve it. Messages posted before the handler is on the
  // port wait in the port's queue.
  import(/* webpackIgnore: true */ /* @vite-ignore */ `node:${'worker_threads'}`).then((wt) => {
    if (!wt.isMainThread && wt.parentPort) {
      const port = wt.parentPort;
      const onMessage = connect((m, transfer) => port.postMessage(m, transfer));
      port.on('message', onMessage);
    }
  });
}
