import { bearerToken } from './bearer-token';

// Merged from the http channel, A2A peer and admin token specs; each block keeps its caller's assertions.
describe('bearerToken', () => {
  describe("'rest-of-value' (http channel accounts)", () => {
    it('extracts a bearer token (scheme case-insensitive) and nothing else', () => {
      expect(bearerToken('Bearer abc', 'rest-of-value')).toBe('abc');
      expect(bearerToken('bearer   abc ', 'rest-of-value')).toBe('abc');
      expect(bearerToken('Basic abc', 'rest-of-value')).toBeUndefined();
      expect(bearerToken('Bearer', 'rest-of-value')).toBeUndefined();
      expect(bearerToken('Bearer ', 'rest-of-value')).toBeUndefined();
      expect(bearerToken(undefined, 'rest-of-value')).toBeUndefined();
      expect(bearerToken(['Bearer abc'], 'rest-of-value')).toBeUndefined();
    });
  });

  describe("'rest-of-value' (A2A peers)", () => {
    it('reads only Bearer credentials', () => {
      expect(bearerToken('Bearer abc', 'rest-of-value')).toBe('abc');
      expect(bearerToken('bearer  abc ', 'rest-of-value')).toBe('abc');
      expect(bearerToken('Basic abc', 'rest-of-value')).toBeUndefined();
      expect(bearerToken('Bearer ', 'rest-of-value')).toBeUndefined();
      expect(bearerToken(undefined, 'rest-of-value')).toBeUndefined();
    });

    it('keeps inner spaces of the value (the difference to single-word)', () => {
      expect(bearerToken('Bearer a b', 'rest-of-value')).toBe('a b');
    });
  });

  describe("'single-word' (admin tokens and JWT assertions)", () => {
    it('takes the token of a Bearer header, scheme case-insensitive', () => {
      expect(bearerToken('Bearer abc.def', 'single-word')).toBe('abc.def');
      expect(bearerToken('bearer   abc ', 'single-word')).toBe('abc');
    });
    it('refuses other schemes, empty tokens, tokens with spaces and lists', () => {
      expect(bearerToken('Basic YWxhZGRpbjpvcGVuc2VzYW1l', 'single-word')).toBeUndefined();
      expect(bearerToken('Bearer ', 'single-word')).toBeUndefined();
      expect(bearerToken('Bearer a b', 'single-word')).toBeUndefined();
      expect(bearerToken(['Bearer a'], 'single-word')).toBeUndefined();
      expect(bearerToken(undefined, 'single-word')).toBeUndefined();
    });
  });
});
