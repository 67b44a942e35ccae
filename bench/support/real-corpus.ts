import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { chunkFile } from '../../src/modules/memory';

/**
 * Real prose for the embedding bench: the project's own docs, then the README.md files of the installed
 * packages (English text of every kind), each distinct file once, until `chunks` chunks of the memory
 * chunker are collected. Written into `dir` as Markdown files; the last file is cut so the total is exact.
 */
export async function writeRealCorpus(dir: string, chunks: number): Promise<{ files: number; chunks: number }> {
  const root = path.resolve(__dirname, '../..');
  const sources = [
    ...(await listMarkdown(path.join(root, 'docs'))),
    path.join(root, 'README.md'),
    ...(await packageReadmes(path.join(root, 'node_modules'))),
  ];
  const seen = new Set<string>();
  let total = 0;
  let files = 0;
  for (const source of sources) {
    if (total >= chunks) break;
    let text = await fs.readFile(source, 'utf8').catch(() => '');
    const digest = createHash('sha256').update(text).digest('hex');
    if (text.length < 400 || seen.has(digest)) continue;
    seen.add(digest);
    let own = chunkFile('markdown', text);
    if (total + own.length > chunks) {
      text = text
        .split('\n')
        .slice(0, own[chunks - total - 1].endLine)
        .join('\n');
      own = chunkFile('markdown', text);
    }
    await fs.writeFile(path.join(dir, `doc-${String(files).padStart(5, '0')}.md`), text);
    total += own.length;
    files++;
  }
  if (total < chunks) throw new Error(`only ${total} chunks of real text found (wanted ${chunks})`);
  return { files, chunks: total };
}

async function listMarkdown(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.md')).map((n) => path.join(dir, n));
}

/** README.md of every package directly under node_modules (and of scoped ones), in name order. */
async function packageReadmes(modules: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await fs.readdir(modules).catch(() => [] as string[])).sort()) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) {
      for (const sub of (await fs.readdir(path.join(modules, name)).catch(() => [] as string[])).sort()) {
        out.push(path.join(modules, name, sub, 'README.md'));
      }
    } else {
      out.push(path.join(modules, name, 'README.md'));
    }
  }
  return out;
}
