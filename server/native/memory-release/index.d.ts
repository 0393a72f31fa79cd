/** null when the addon could not be built on this machine. */
declare const addon: {
  /** Returns the allocator's free pages to the system; false where the C library has no such call. */
  releaseFreeMemory(): boolean;
} | null;
export = addon;
