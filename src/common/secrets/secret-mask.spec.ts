import { Writable } from 'node:stream';
import pino from 'pino';
import { maskingDestination } from './masking-destination';
import { containsSecret, MASKED, maskSecrets, registerSecretSource } from './secret-mask';

describe('secret masking', () => {
  let secrets: string[] = [];
  let unregister: () => void;
  beforeEach(() => {
    secrets = ['tok-0123456789', 'quo"te\\back-slash', 'tok-0123456789-longer'];
    unregister = registerSecretSource(() => secrets);
  });
  afterEach(() => unregister());

  it('masks every occurrence, longest secret first, in raw, JSON-escaped and URL-encoded form', () => {
    expect(maskSecrets('a tok-0123456789 b tok-0123456789-longer')).toBe(`a ${MASKED} b ${MASKED}`);
    expect(maskSecrets(JSON.stringify({ v: 'x quo"te\\back-slash y' }))).toBe(JSON.stringify({ v: `x ${MASKED} y` }));
    expect(maskSecrets(`/path?k=${encodeURIComponent('quo"te\\back-slash')}`)).toBe(`/path?k=${MASKED}`);
  });

  it('follows the source: a secret removed from it is no longer masked, a new one is', () => {
    secrets = ['brand-new-secret'];
    expect(maskSecrets('tok-0123456789 brand-new-secret')).toBe(`tok-0123456789 ${MASKED}`);
  });

  it('takes regular-expression characters in a secret literally', () => {
    secrets = ['a.b*c(d)e[f]g{h}|i\\j^k$l+m?n/o-p'];
    expect(maskSecrets(`x ${secrets[0]} y`)).toBe(`x ${MASKED} y`);
    expect(maskSecrets('aXbbbcde')).toBe('aXbbbcde');
    expect(containsSecret('nothing here')).toBe(false);
    expect(containsSecret(`..${secrets[0]}..`)).toBe(true);
  });

  it('masks the longest of overlapping secrets whole, wherever the shorter one starts', () => {
    secrets = ['xxtok-012', 'tok-0123456789-longer'];
    expect(maskSecrets('xxtok-0123456789-longer')).toBe(`xx${MASKED}`);
  });

  it('leaves values shorter than 8 characters alone (they would mangle ordinary text)', () => {
    secrets = ['abc'];
    expect(maskSecrets('abc abcdef')).toBe('abc abcdef');
  });

  it('masks pino lines wherever the secret sits: message, fields, error stacks', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) });
    const logger = pino({ level: 'debug' }, maskingDestination({ write: (l: string) => sink.write(l) }));
    logger.info({ headers: { 'x-custom': 'tok-0123456789' } }, 'upstream said tok-0123456789-longer');
    logger.error(new Error('bad key quo"te\\back-slash'));
    const all = lines.join('');
    expect(lines).toHaveLength(2);
    expect(all).not.toContain('tok-0123456789');
    expect(all).not.toContain('back-slash');
    expect(all.split(MASKED).length - 1).toBeGreaterThanOrEqual(3);
  });
});
