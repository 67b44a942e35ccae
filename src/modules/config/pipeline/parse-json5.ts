import JSON5 from 'json5';
import { ConfigLoadError } from './config-issue';

/**
 * Pipeline step 1: turn the text of one config file into a value.
 *
 * json5 reports syntax errors as a SyntaxError whose message already embeds the position
 * ("JSON5: invalid character ']' at 3:5"). We carry line/column as structured fields of the
 * ConfigIssue, so the message is trimmed down to the part a human needs; formatConfigIssue puts
 * the position back in front as `file:line:col`.
 */
export function parseJson5(text: string, file: string): unknown {
  // Editors on Windows like to save a BOM; json5 would reject it as an invalid character.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;

  // json5 says "invalid end of input at 1:1" for an empty file, which sends people looking for a
  // typo that is not there. Say what actually happened.
  if (body.trim() === '') {
    throw new ConfigLoadError([{ path: '', file, message: 'file is empty' }]);
  }

  try {
    return JSON5.parse(body);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    const pos = err as SyntaxError & { lineNumber?: number; columnNumber?: number };
    throw new ConfigLoadError([
      {
        path: '',
        file,
        line: pos.lineNumber,
        column: pos.columnNumber,
        message: readableMessage(err.message),
      },
    ]);
  }
}

/** "JSON5: invalid character ']' at 3:5" -> "invalid character ']'". */
function readableMessage(raw: string): string {
  const trimmed = raw.replace(/^JSON5:\s*/, '').replace(/\s+at \d+:\d+\s*$/, '');
  return trimmed || 'syntax error';
}
