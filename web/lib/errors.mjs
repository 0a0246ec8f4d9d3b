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
