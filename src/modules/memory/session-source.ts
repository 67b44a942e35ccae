import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { SessionStore, TranscriptVersion } from '../sessions';
import type { ChangeWatcher, CollectionSource, DocumentLookup, DocumentRead, SourceDocument, WatchOptions } from './collection-source';
import { MemoryCollection, relativeInCollection, sessionDocumentPath, sessionIdOfPath } from './memory-collections';
import { TranscriptWatcher } from './transcript-watcher';

/** A session as a document: the key is what the store reads it by. */
export interface SessionDocument extends SourceDocument {
  sessionKey: string;
}

/**
 * A collection on a session dir of this state dir, read from the session store: each session of the
 * agent is one document, `<sessionsDir>/<sessionId>.jsonl`, whose text is the transcript's JSONL export —
 * the same text (and so the same chunks and line numbers) as the transcript file the earlier file layout
 * kept there. The stamp is the transcript version and the time of the last append, so an unchanged session is
 * skipped without exporting it. Files in the directory itself are not read.
 */
export class SessionSource implements CollectionSource<SessionDocument> {
  constructor(private readonly store: SessionStore) {}

  async list(c: MemoryCollection): Promise<Map<string, SessionDocument>> {
    const out = new Map<string, SessionDocument>();
    for (const version of await this.store.transcriptVersions(agentOf(c))) {
      const document = sessionDocument(c, version);
      if (document) out.set(document.path, document);
    }
    return out;
  }

  async lookup(c: MemoryCollection, file: string): Promise<DocumentLookup<SessionDocument>> {
    const sessionId = sessionIdOfPath(c, file);
    if (sessionId === undefined) return { status: 'missing' };
    const version = await this.store.transcriptVersion(agentOf(c), sessionId);
    const document = version && sessionDocument(c, version);
    return document ? { status: 'ok', document } : { status: 'missing' };
  }

  async read(_c: MemoryCollection, document: SessionDocument, maxBytes = Infinity): Promise<DocumentRead> {
    let text = '';
    let bytes = 0;
    try {
      for await (const chunk of this.store.exportTranscript(document.sessionKey)) {
        bytes += Buffer.byteLength(chunk);
        if (bytes > maxBytes) return { status: 'too-large' }; // stop exporting: it will not be indexed anyway
        text += chunk;
      }
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.NotFound) return { status: 'gone' };
      throw err;
    }
    return { status: 'ok', text };
  }

  watcher(collections: readonly MemoryCollection[], options: WatchOptions): ChangeWatcher {
    return new TranscriptWatcher(this.store, collections, options);
  }
}

function sessionDocument(c: MemoryCollection, v: TranscriptVersion): SessionDocument | undefined {
  const file = sessionDocumentPath(c, v.sessionId);
  // The collection's pattern still applies (one that names only `*.md` holds no session).
  if (relativeInCollection(c, file) === undefined) return undefined;
  return { path: file, size: v.version, mtimeMs: v.updatedAt, sessionKey: v.sessionKey };
}

function agentOf(c: MemoryCollection): string {
  if (c.transcriptsOf === undefined) throw new Error(`collection ${c.name} is not on a session dir`);
  return c.transcriptsOf;
}
