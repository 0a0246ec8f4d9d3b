// voxnav - the error every failing call throws.

/** Status names, as the C++ API's voxnav::status_name gives them. */
export const STATUS_NAMES = Object.freeze([
  'Ok', 'InvalidArgument', 'OutOfRange', 'NotLoaded', 'NotFound', 'StaleHandle', 'BadFormat',
  'Unsupported', 'Busy', 'OutOfMemory',
]);

/**
 * Thrown by every voxnav call that fails. `status` is the status name ("InvalidArgument",
 * "OutOfRange", ...); `function` the JS method that failed ("setBlock"), `argument` the argument
 * at fault ("cell"; '' when no single argument is); the message starts with the method name and
 * names the argument, its value and the rule.
 */
export class VoxnavError extends Error {
  constructor(status, message, fn = '', argument = '') {
    super(message);
    this.name = 'VoxnavError';
    this.status = status;
    this.function = fn;
    this.argument = argument;
  }

  /** A plain object that survives postMessage: { status, message, function, argument }. */
  toJSON() {
    return { status: this.status, message: this.message, function: this.function, argument: this.argument };
  }
}

/** snake_case (the C++ API's names) -> camelCase (the JS API's): the one place names are mapped. */
export function camelCase(name) {
  return name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/**
 * The VoxnavError of a failed core call, from what C++ wrote: { status (code), function, argument,
 * message } (WorldCore.lastError(); C++ names, made JS names here). `jsFunction` names the JS
 * function the user called when it is not the core call's (setBlock runs set_blocks), and
 * `jsArgument` its argument when the core call's is another (loadRegion's file holds columns).
 */
export function coreError(e, jsFunction = '', jsArgument = '') {
  const fn = jsFunction || camelCase(e.function), argument = jsArgument || camelCase(e.argument);
  // A message that starts with the argument's C++ name shows its JS name ("params.step_height -1").
  const text = e.argument && e.message.startsWith(e.argument) ? argument + e.message.slice(e.argument.length) : e.message;
  return new VoxnavError(STATUS_NAMES[e.status] ?? 'Unknown', fn ? `${fn}: ${text}` : text, fn, argument);
}

/** An error of JS-level argument conversion: `${fn}: ${text}`, naming the argument. */
export function argError(status, fn, argument, text) {
  return new VoxnavError(status, `${fn}: ${text}`, fn, argument);
}

export function invalid(message) {
  return new VoxnavError('InvalidArgument', message);
}

/**
 * What escaped a call into the wasm module, as the VoxnavError of JS method `fn` (nothing raw
 * ever leaves a World method: web/lib/world.mjs routes every module call through this).
 * Returns { error, worldBroken, moduleDead }:
 * - a VoxnavError passes through;
 * - the bindings' out-of-memory report ({ voxnavOutOfMemory, worldUnchanged }: an allocation
 *   failed inside the call and was caught in wasm, bindings/voxnav_bindings.cpp) is OutOfMemory;
 *   worldBroken when the World may be half-changed;
 * - a module abort (WebAssembly.RuntimeError, "Aborted(...)"), a bare number or an uncaught wasm
 *   exception means the module itself can no longer be trusted: OutOfMemory (the one way it
 *   happens short of a bug), moduleDead;
 * - an Embind argument error (a TypeError / BindingError thrown before wasm ran) is
 *   InvalidArgument, nothing changed; a RangeError (JS could not allocate) is OutOfMemory.
 */
export function escapedError(fn, e) {
  if (e instanceof VoxnavError) return { error: e, worldBroken: false, moduleDead: false };
  const oom = (text) => new VoxnavError('OutOfMemory', `${fn}: ${text}`, fn, '');
  if (e && typeof e === 'object' && e.voxnavOutOfMemory === true) {
    const unchanged = e.worldUnchanged === true;
    const text = unchanged
      ? 'out of memory: the wasm heap cannot hold this call\'s data (nothing changed)'
      : 'out of memory inside the call: this world may be half-changed and only accepts dispose() now';
    return { error: oom(text), worldBroken: !unchanged, moduleDead: false };
  }
  const name = e && typeof e === 'object' ? e.name ?? e.constructor?.name : '';
  if (name === 'TypeError' || name === 'BindingError' || name === 'UnboundTypeError')
    return { error: new VoxnavError('InvalidArgument', `${fn}: ${e.message}`, fn, ''), worldBroken: false, moduleDead: false };
  if (name === 'RangeError')
    return { error: oom(`out of memory in JS (${e.message}); nothing changed`), worldBroken: false, moduleDead: false };
  // Emscripten's abort text ("Aborted(). Build with -s ASSERTIONS=1 ...") is said in our words.
  const text = e && typeof e === 'object' && typeof e.message === 'string' ? e.message : String(e);
  const abort = /^Aborted\((.*?)\)/.exec(text);
  const what = typeof e === 'number' ? `a C++ exception (${e})`
    : abort ? `abort${abort[1] ? `: ${abort[1]}` : ''}` : text;
  return {
    error: oom(`the wasm module stopped (${what}), most likely out of memory; every World of this ` +
      'library only accepts dispose() now: load() a new one'),
    worldBroken: true,
    moduleDead: true,
  };
}
