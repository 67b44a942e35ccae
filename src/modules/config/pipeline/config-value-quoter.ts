import { withoutUrlCredentials } from '../../../common/net/url-credentials';
import { toDottedPath } from './config-issue';
import type { Substitution } from './substitute-env';

/** A place in the merged document: a dotted path (`agents.list[0].model`) or its segments. */
export type ConfigPath = string | ReadonlyArray<string | number>;

/**
 * The one way a validation or normalization message shows a value of the config. Messages quote offending
 * values so a typo is easy to spot, but a value that came from `${VAR}` is often one an operator never meant
 * to show (it may even be a secret written into the wrong field), and the messages reach viewers
 * (`GET /admin/config/status`) and the log. So a message asks this for every value it shows, saying where in
 * the document the value was read: a literal comes back JSON-quoted, a substituted one as the variable that
 * gave it. Decided by where the value was read, not by its text, so a part of the value (the provider of
 * `"${MODEL}/x"`) or a value normalized on the way (a lowercased agent id) is named just the same. A literal
 * is shown with the credentials of a URL masked and cut after 57 characters.
 */
export class ConfigValueQuoter {
  private readonly byPath: ReadonlyMap<string, Substitution>;

  constructor(substitutions: readonly Substitution[] = []) {
    this.byPath = new Map(substitutions.map((s) => [s.path, s]));
  }

  /** `text` as a message shows it: `text` is the value at `at`, a part of it, or made from it. */
  quote(at: ConfigPath, text: string): string {
    const substitution = this.byPath.get(dotted(at));
    if (!substitution) return JSON.stringify(shortened(withoutUrlCredentials(text)));
    return substitution.whole
      ? `the value of \${${substitution.names[0]}}`
      : `a value built from ${substitution.names.map((name) => `\${${name}}`).join(', ')}`;
  }

  /**
   * The substitutions at or below `prefix`, as text: what a cached result of checking that part of the
   * document also depends on, since its messages quote values.
   */
  fingerprintBelow(prefix: string): string {
    return [...this.byPath.values()]
      .filter((s) => s.path === prefix || s.path.startsWith(`${prefix}.`) || s.path.startsWith(`${prefix}[`))
      .map((s) => `${s.path}=${s.whole ? '' : '~'}${s.names.join(',')}`)
      .join(';');
  }
}

/** A quoter for a document without `${VAR}` references: quotes every value. */
export const QUOTE_LITERALLY = new ConfigValueQuoter();

/** Longer literals are cut: a message names the value, it need not hold all of it. */
const MAX_QUOTED_LENGTH = 60;

function shortened(text: string): string {
  return text.length > MAX_QUOTED_LENGTH ? `${text.slice(0, MAX_QUOTED_LENGTH - 3)}...` : text;
}

function dotted(at: ConfigPath): string {
  return typeof at === 'string' ? at : toDottedPath(at);
}
