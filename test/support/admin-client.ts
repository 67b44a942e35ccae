/**
 * What a client that is not a browser form sends with an admin write that has no JSON body (a reload, a cancel, a
 * delete): the header the console and the CLI send, without which the gateway takes the write for a forged cross-site
 * form post (docs/admin-security.md#cross-site-requests). Usage: `request(url).post('/admin/config/reload').set(API_CLIENT)`.
 */
export const API_CLIENT: Readonly<Record<string, string>> = { 'X-Clawgate-Client': 'e2e-test' };
