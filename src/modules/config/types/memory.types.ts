/** The normalized `memory` section, and the collections an agent adds to it. */

export interface MemoryCollectionSettings {
  /** Absolute directory. */
  path: string;
  name: string;
  pattern?: string;
}

export interface MemorySettings {
  backend: 'builtin' | 'qmd';
  citations: 'auto' | 'on' | 'off';
  qmd: {
    includeDefaultMemory: boolean;
    sessionsEnabled: boolean;
    paths: MemoryCollectionSettings[];
    debounceMs: number;
    maxResults: number;
    maxSnippetChars: number;
    /** Relevance below which results are dropped when the caller gives no minScore. */
    minScore: number;
  };
  embeddings: {
    provider: 'bundled' | 'bundled-static' | 'openai' | 'none';
    baseUrl?: string;
    apiKey?: string;
    model?: string;
    /** Worker threads of the bundled model. */
    workers: number;
    /** bundled-static: best candidates of a search rescored by the bundled model (0: none). */
    rerank: number;
  };
}
