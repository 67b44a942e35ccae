import { callGateway } from './gateway-client';

/**
 * `clawgate pairing list|approve|deny`: DM pairing of the chat channels on a running gateway, through its admin API
 * (/admin/pairing…; CLAWGATE_URL, CLAWGATE_TOKEN: viewer to list, operator to decide). docs/channels.md#pairing.
 */

interface PairingRequest {
  code: string;
  accountId: string;
  senderId: string;
  senderName?: string;
  expiresAt: string;
}
interface ChannelPairing {
  channel: string;
  pending: PairingRequest[];
  approved: Array<{ senderId: string; senderName?: string; accountId: string; approvedAt: string }>;
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const who = (s: { senderId: string; senderName?: string }) => (s.senderName ? `${s.senderName} (${s.senderId})` : s.senderId);

export async function runPairingList(channel: string | undefined, opts: { json?: boolean }): Promise<void> {
  const res = await callGateway('GET', `/admin/pairing${channel !== undefined ? `?channel=${encodeURIComponent(channel)}` : ''}`);
  if (!res) return;
  const body = res.body as { channels: ChannelPairing[] };
  if (opts.json) return out(JSON.stringify(body, null, 2));
  if (!body.channels.length) out('no chat channels');
  for (const c of body.channels) {
    out(`${c.channel}: ${c.pending.length} pending, ${c.approved.length} approved`);
    for (const p of c.pending) out(`  ${p.code}  ${who(p)}  account ${p.accountId}  expires ${p.expiresAt}`);
    for (const a of c.approved) out(`  approved  ${who(a)}  account ${a.accountId}  since ${a.approvedAt}`);
  }
}

export function runPairingApprove(channel: string, code: string, opts: { json?: boolean }): Promise<void> {
  return decide(channel, code, 'approve', opts);
}

export function runPairingDeny(channel: string, code: string, opts: { json?: boolean }): Promise<void> {
  return decide(channel, code, 'deny', opts);
}

async function decide(channel: string, code: string, decision: 'approve' | 'deny', opts: { json?: boolean }): Promise<void> {
  const res = await callGateway('POST', `/admin/pairing/${encodeURIComponent(channel)}/${encodeURIComponent(code)}/${decision}`);
  if (!res) return;
  const body = res.body as { channel: string; code: string; decision: string; senderId: string; senderName?: string };
  if (opts.json) return out(JSON.stringify(body, null, 2));
  out(
    decision === 'approve'
      ? `approved ${who(body)} on ${body.channel}: their next message reaches the agent`
      : `denied pairing code ${body.code} of ${who(body)} on ${body.channel}`,
  );
}
