/**
 * Modes of what the gateway creates in its state directory: the last-good config copy (literal secrets),
 * session indexes and transcripts (conversations), the SQLite stores (tasks, memory) and the audit log.
 * They are created readable by the gateway's user only, whatever the umask, because they hold the same
 * kind of data as an `openclaw.json` an operator keeps at 0600. Existing files and directories keep the
 * mode they have: an operator who widened one on purpose is not overruled.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;
