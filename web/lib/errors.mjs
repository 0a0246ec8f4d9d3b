// voxnav - the error every failing call throws.

/** Status names, as the C++ API's voxnav::status_name gives them. */
export const STATUS_NAMES = Object.freeze([
  'Ok', 'InvalidArgument', 'OutOfRange', 'NotLoaded', 'NotFound', 'StaleHandle', 'BadFormat',
  'Unsupported', 'Busy',
]);

/**
 * Thrown by every voxnav call that fails. `status` is the status name ("InvalidArgument",
 * "OutOfRange", ...); the message starts with the method name and names the bad argument.
 */
export class VoxnavError extends Error {
  constructor(status, message) {
    super(message);
    this.name = 'VoxnavError';
    this.status = status;
  }

  /** A plain object that survives postMessage: { status, message }. */
  toJSON() {
    return { status: this.status, message: this.message };
  }
}

export function invalid(message) {
  return new VoxnavError('InvalidArgument', message);
}
