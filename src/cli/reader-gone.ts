/**
 * `clawgate … | head -1`: once the reader has what it wants it closes the pipe, and the next write to stdout fails
 * with EPIPE, emitted as an 'error' event on the stream that nothing handles: an uncaught exception with a stack.
 * The reader going away is not the command's failure: the process ends quietly with code 0, as `cat` and `ls` do.
 * Any other error of stdout is said on stderr and ends the process with code 1.
 */
export function exitQuietlyWhenReaderGoesAway(
  stream: NodeJS.WriteStream = process.stdout,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return exit(0);
    process.stderr.write(`clawgate: cannot write to stdout: ${error.message}\n`);
    exit(1);
  });
}
