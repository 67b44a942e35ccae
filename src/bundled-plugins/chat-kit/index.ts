/**
 * What the bundled chat-channel plugins share: cutting a long reply at a platform's length limit on paragraph and
 * code-block boundaries, and pacing each chat's writes to the platform's rate.
 */
export { splitMarkdown } from './split-text';
export { ChatPacer, sleep } from './chat-pacer';
