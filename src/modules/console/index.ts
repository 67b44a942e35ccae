export { CONSOLE_PATH, mountConsole } from './mount-console';
export { CONSOLE_CSP } from './console-headers';
