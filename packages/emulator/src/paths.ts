// The emulator's own paths, spelled once.

/** Where the control routes are mounted. */
export const CONTROL_PREFIX = '/_emulator';

/** Where the inspector page is served (and at `/`). */
export const INSPECTOR_PATH = `${CONTROL_PREFIX}/inspector`;

/** A request path on the control routes (`/_emulator` or below it). */
export const isControlPath = (path: string): boolean => path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
