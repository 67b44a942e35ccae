import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { normalizePlaceholders, walkSchemaProperties } from '../../../../test/support/config-reference';
import { buildConfigJsonSchema } from '../schema/export-schema';
import { describedKeys, renderCompatibilityDoc } from './compatibility-doc';

const COMPAT_DOC = path.resolve(__dirname, '../../../../docs/openclaw-compatibility.md');

/** Every property path of clawgate's schema, in the doc notation (`agents.list[].id`, `models.providers.<name>.api`). */
function schemaPaths(): Set<string> {
  const out = new Set<string>();
  walkSchemaProperties(buildConfigJsonSchema(), (keyPath) => out.add(keyPath), { skip: new Set(['$include']) });
  return out;
}

describe('OpenClaw key data', () => {
  const schema = schemaPaths();
  const keys = describedKeys().map((k) => ({ ...k, path: normalizePlaceholders(k.path) }));

  it('marks implemented exactly the OpenClaw keys the schema defines', () => {
    const missing = keys.filter((k) => k.node.status === 'implemented' && !schema.has(k.path)).map((k) => k.path);
    const owned = keys.filter((k) => k.node.status !== 'implemented' && schema.has(k.path)).map((k) => `${k.path} (${k.node.status})`);
    expect({ implementedButNotInSchema: missing, inSchemaButMarkedOtherwise: owned }).toEqual({
      implementedButNotInSchema: [],
      inSchemaButMarkedOtherwise: [],
    });
  });

  it('describes each key once', () => {
    const seen = new Set<string>();
    const twice = keys.filter((k) => seen.size === seen.add(k.path).size).map((k) => k.path);
    expect(twice).toEqual([]);
  });

  it('gives every refused and legacy key a reason', () => {
    const bare = keys.filter((k) => (k.node.status === 'refused' || k.node.status === 'legacy') && !k.node.note?.trim()).map((k) => k.path);
    expect(bare).toEqual([]);
  });
});

describe('docs/openclaw-compatibility.md', () => {
  it('is exactly what the key data generates', () => {
    // Same text as `npm run compat-doc` writes, so a stale page and a hand-edited one both fail.
    if (readFileSync(COMPAT_DOC, 'utf8') !== renderCompatibilityDoc()) {
      throw new Error('docs/openclaw-compatibility.md is out of date with src/modules/config/openclaw/openclaw-keys.ts: run `npm run compat-doc` and commit the result');
    }
  });
});
