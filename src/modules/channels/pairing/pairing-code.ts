import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L, 2/Z, 5/S, 8/B: a code read aloud or copied by hand comes out right. */
export const PAIRING_ALPHABET = 'ACDEFGHJKMNPQRTUVWXY34679';
export const PAIRING_CODE_LENGTH = 8;
const CODE = new RegExp(`^[${PAIRING_ALPHABET}]{${PAIRING_CODE_LENGTH}}$`);

/** A one-time pairing code: 8 characters of the unambiguous alphabet, from the CSPRNG. */
export function newPairingCode(): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)];
  return code;
}

/** A code as a person may type it (lowercase, spaces or dashes between groups) in its canonical form, or undefined. */
export function canonicalPairingCode(text: string): string | undefined {
  const code = text.replace(/[\s-]/g, '').toUpperCase();
  return CODE.test(code) ? code : undefined;
}
