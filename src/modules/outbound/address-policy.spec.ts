import { isLiteralHost, nonPublicCategory } from './address-policy';
import { guardedLookup, HostResolver } from './guarded-lookup';

describe('nonPublicCategory', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.254', 'shared (CGNAT)'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:a00:1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
  ])('%s is %s', (address, category) => {
    expect(nonPublicCategory(address)).toBe(category);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(nonPublicCategory(address)).toBeUndefined();
    },
  );

  it('treats anything that is not an address as non-public', () => {
    expect(nonPublicCategory('example.com')).toBe('not an IP address');
  });
});

describe('isLiteralHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['[::1]', true],
    ['::1', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['peer.example.test', false],
    ['localhost.example.test', false],
    ['foo.localhost', false],
  ])('%s → %s', (host, literal) => {
    expect(isLiteralHost(host)).toBe(literal);
  });
});

describe('guardedLookup', () => {
  const resolver =
    (table: Record<string, Array<{ address: string; family: 4 | 6 }>>): HostResolver =>
    async (h) =>
      table[h] ?? [];
  const lookup = (fn: ReturnType<typeof guardedLookup>, host: string, all: boolean) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      fn(host, { all }, (err, address, family) => resolve({ err, address, family })),
    );

  const table = {
    'public.example.test': [{ address: '93.184.216.34', family: 4 as const }],
    'inside.example.test': [{ address: '10.0.0.7', family: 4 as const }],
    'mixed.example.test': [
      { address: '93.184.216.34', family: 4 as const },
      { address: '::ffff:127.0.0.1', family: 6 as const },
    ],
    localhost: [{ address: '127.0.0.1', family: 4 as const }],
  };

  it('hands a public answer to the socket, in both callback forms', async () => {
    const fn = guardedLookup(resolver(table));
    expect(await lookup(fn, 'public.example.test', false)).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await lookup(fn, 'public.example.test', true)).toMatchObject({ err: null, address: [{ address: '93.184.216.34', family: 4 }] });
  });

  it('refuses a name resolving to a private address, naming the category and the address', async () => {
    const { err } = await lookup(guardedLookup(resolver(table)), 'inside.example.test', true);
    expect(err?.code).toBe('E_CLAWGATE_OUTBOUND_REFUSED');
    expect(err?.message).toContain('inside.example.test resolves to a private address (10.0.0.7)');
  });

  it('refuses a name when any of its addresses is non-public (IPv4-mapped included)', async () => {
    const { err } = await lookup(guardedLookup(resolver(table)), 'mixed.example.test', true);
    expect(err?.message).toContain('loopback address (::ffff:127.0.0.1)');
  });

  it('lets localhost through: the operator named it', async () => {
    expect((await lookup(guardedLookup(resolver(table)), 'localhost', false)).address).toBe('127.0.0.1');
  });

  it('reports a name without addresses as ENOTFOUND', async () => {
    expect((await lookup(guardedLookup(resolver(table)), 'nowhere.example.test', false)).err?.code).toBe('ENOTFOUND');
  });
});
