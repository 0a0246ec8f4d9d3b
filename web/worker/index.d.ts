// voxnav server worker - the adapter. Importing it inside a Worker installs the handlers.
export * from './handlers.js';

/** Wires the handlers to a sender; returns the function to call with each incoming message. */
export function connect(post: (message: unknown, transfer: ArrayBuffer[]) => void): (message: unknown) => Promise<void>;
/** Installs the handlers on a dedicated Worker scope (done automatically inside a Worker). */
export function installWorker(scope?: {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  onmessage: ((event: { data: unknown }) => unknown) | null;
}): void;
