import { isSecretConfigPath } from '../../../common/secrets/secret-paths';
import { ConfigValueQuoter, QUOTE_LITERALLY } from './config-value-quoter';
import { substituteEnv } from './substitute-env';

describe('ConfigValueQuoter', () => {
  const quoter = new ConfigValueQuoter(
    substituteEnv(
      { gateway: { publicUrl: '${URL}', trustedProxies: ['10.0.0.0/8', '${PROXY}'] }, bindings: [{ agentId: 'team-${TEAM}-${SITE}' }] },
      { URL: 'not a url s3cr3t-env', PROXY: 'proxy.internal', TEAM: 'blue', SITE: 'eu' },
      isSecretConfigPath,
    ).substitutions,
  );

  it('names the variable of a value read where a ${VAR} was, whatever text the message would have shown', () => {
    expect(quoter.quote('gateway.publicUrl', 'not a url s3cr3t-env')).toBe('the value of ${URL}');
    // A part of the value, a value changed on the way: decided by where it was read, not by its text.
    expect(quoter.quote('gateway.publicUrl', 's3cr3t')).toBe('the value of ${URL}');
    expect(quoter.quote(['gateway', 'trustedProxies', 1], 'PROXY.INTERNAL')).toBe('the value of ${PROXY}');
    expect(quoter.quote('bindings[0].agentId', 'team-blue-eu')).toBe('a value built from ${TEAM}, ${SITE}');
  });

  it('quotes a literal value as JSON, also one equal to a substituted value elsewhere', () => {
    expect(quoter.quote(['gateway', 'trustedProxies', 0], '10.0.0.0/8')).toBe('"10.0.0.0/8"');
    expect(quoter.quote('gateway.bind', 'proxy.internal')).toBe('"proxy.internal"');
    // Above or beside a substituted value is not at it: the container of a list is not its entry.
    expect(quoter.quote('gateway.trustedProxies', 'proxy.internal')).toBe('"proxy.internal"');
    expect(QUOTE_LITERALLY.quote('gateway.publicUrl', 'say "hi"')).toBe('"say \\"hi\\""');
  });

  it('shows a literal URL without its credentials, and a long literal cut short', () => {
    expect(QUOTE_LITERALLY.quote('u', 'http://svc:pw@host.internal/x')).toBe('"http://***@host.internal/x"');
    expect(QUOTE_LITERALLY.quote('u', `${'a'.repeat(57)}bcdef`)).toBe(`"${'a'.repeat(57)}..."`);
    expect(QUOTE_LITERALLY.quote('u', 'a'.repeat(60))).toBe(`"${'a'.repeat(60)}"`);
  });

  it('fingerprints the substitutions below a path (what a cached validation result also depends on)', () => {
    expect(quoter.fingerprintBelow('gateway')).toBe('gateway.publicUrl=URL;gateway.trustedProxies[1]=PROXY');
    expect(quoter.fingerprintBelow('bindings')).toBe('bindings[0].agentId=~TEAM,SITE');
    expect(quoter.fingerprintBelow('gate')).toBe('');
    expect(QUOTE_LITERALLY.fingerprintBelow('gateway')).toBe('');
  });
});
