import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Sessions one key may hold open; past it, the one it used least recently is ended (a client that never DELETEs). */
export const MAX_SESSIONS_PER_KEY = 100;

/** One MCP session: its transport and server, the key that opened it, and what it last saw of its tools. */
export interface McpSession {
  id: string;
  keyName: string;
  /** The agent the session's requests are narrowed to (`x-openclaw-agent-id` at initialize). */
  onlyAgent?: string;
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** The tool names its client was last told of, to send `notifications/tools/list_changed` when they change. */
  toolNames: string;
}

/**
 * The open sessions, by `Mcp-Session-Id`, in the order they were last used. A session belongs to the key that
 * initialized it: another key naming its id is answered as for an unknown session.
 */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();

  /** The session, marked as just used; undefined when unknown or opened by another key. */
  use(id: string, keyName: string): McpSession | undefined {
    const session = this.sessions.get(id);
    if (!session || session.keyName !== keyName) return undefined;
    this.sessions.delete(id);
    this.sessions.set(id, session);
    return session;
  }

  /** Adds a session; returns the sessions of its key beyond MAX_SESSIONS_PER_KEY, for the caller to end. */
  add(session: McpSession): McpSession[] {
    this.sessions.set(session.id, session);
    const ofKey = [...this.sessions.values()].filter((s) => s.keyName === session.keyName);
    return ofKey.slice(0, Math.max(0, ofKey.length - MAX_SESSIONS_PER_KEY));
  }

  remove(id: string): void {
    this.sessions.delete(id);
  }

  all(): McpSession[] {
    return [...this.sessions.values()];
  }

  get size(): number {
    return this.sessions.size;
  }
}
