import { IsOptional } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { Default, Describe, IsCidr, isPlainRecord, parseCidr } from './schema-decorators';

describe('parseCidr', () => {
  it('accepts addresses and blocks of both families, with the full prefix for a bare address', () => {
    expect(parseCidr('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseCidr('192.168.1.10')).toEqual({ address: '192.168.1.10', prefix: 32, family: 'ipv4' });
    expect(parseCidr('::1')).toEqual({ address: '::1', prefix: 128, family: 'ipv6' });
    expect(parseCidr('fd00::/8')).toEqual({ address: 'fd00::', prefix: 8, family: 'ipv6' });
    expect(parseCidr('0.0.0.0/0')?.prefix).toBe(0);
  });

  it('rejects prefixes out of range, junk, host names and extra slashes', () => {
    for (const bad of [
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.0/-1',
      '10.0.0.0/8a',
      '10.0.0.0/',
      '1.2.3.4/8/1',
      'proxy.local',
      '300.1.1.1',
      '',
    ]) {
      expect(parseCidr(bad)).toBeNull();
    }
  });
});

describe('isPlainRecord', () => {
  it('is true only for plain objects', () => {
    expect(isPlainRecord({})).toBe(true);
    for (const v of [[], null, 'x', 1, new Map()]) expect(isPlainRecord(v)).toBe(false);
  });
});

describe('Describe, Default and the typed decorators on one property', () => {
  it('all end up in the JSON Schema, whatever their order, and the default is a copy', () => {
    const proxies: readonly [] = Object.freeze<[]>([]);
    class Sample {
      @IsOptional()
      @IsCidr()
      @Describe('Proxies.')
      @Default(proxies)
      first?: string[];

      @IsOptional()
      @Default(proxies)
      @Describe('Proxies.')
      @IsCidr()
      second?: string[];
    }
    const schema = targetConstructorToSchema(Sample) as { properties: Record<string, Record<string, unknown>> };
    for (const key of ['first', 'second']) {
      expect(schema.properties[key]).toMatchObject({ type: 'array', description: 'Proxies.', default: [] });
      expect(Object.isFrozen(schema.properties[key].default)).toBe(false);
    }
  });
});
