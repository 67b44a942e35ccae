import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { filesProblem, mediaMaxMb, withInboundFiles } from './inbound-files';

const MB = 1024 * 1024;

describe('inbound chat files', () => {
  let stateDir: string;
  beforeEach(async () => (stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-chat-files-'))));
  afterEach(() => fs.rm(stateDir, { recursive: true, force: true }));

  it('shows a text file inline and stores a photo under the agent, labelled as the chat user’s', async () => {
    const photo = Buffer.from([0xff, 0xd8, 0xff, 0x00]);
    const outcome = await withInboundFiles(
      stateDir,
      'main',
      'telegram',
      'look',
      [
        { name: 'notes.txt', mimeType: 'text/plain; charset=utf-8', data: Buffer.from('hello') },
        { name: 'photo.jpg', mimeType: 'image/jpeg', size: 4, download: () => Promise.resolve(photo) },
      ],
      20,
    );
    if (outcome.kind !== 'ok') throw new Error(outcome.text);
    expect(outcome.text).toMatch(/^look\n\nFiles sent with this message by the chat user\./);
    expect(outcome.text).toContain('[Attachment 1 of 2 "notes.txt" (text/plain, 5 bytes):]\n```\nhello\n```');
    const stored = outcome.attachments[1].path!;
    expect(stored).toMatch(/^agents\/main\/attachments\/telegram-[0-9a-f-]+\/1-photo\.jpg$/);
    expect(await fs.readFile(path.join(stateDir, stored))).toEqual(photo);
  });

  it('refuses a file the platform says is too large without downloading it, naming the limit', async () => {
    const download = jest.fn(() => Promise.resolve(Buffer.alloc(1)));
    const outcome = await withInboundFiles(
      stateDir,
      'main',
      'telegram',
      '',
      [{ name: 'big.zip', mimeType: 'application/zip', size: 3 * MB + MB / 2, download }],
      2,
    );
    expect(outcome).toEqual({
      kind: 'refused',
      text: 'The file "big.zip" is 3.5 MB; files up to 2 MB are accepted here. Your message was not passed on.',
    });
    expect(download).not.toHaveBeenCalled();
  });

  it('refuses bytes beyond the limit when the size was not known, and tells a download failure in its words', async () => {
    const over = await withInboundFiles(
      stateDir,
      'main',
      'x',
      '',
      [{ name: 'a.bin', mimeType: 'application/octet-stream', download: () => Promise.resolve(Buffer.alloc(MB + 1)) }],
      1,
    );
    expect(over).toMatchObject({ kind: 'refused', text: expect.stringContaining('files up to 1 MB are accepted here') });
    const failed = await withInboundFiles(
      stateDir,
      'main',
      'x',
      '',
      [{ name: 'a.bin', mimeType: 'x', download: () => Promise.reject(new Error('the platform answered 404')) }],
      1,
    );
    expect(failed).toEqual({
      kind: 'refused',
      text: 'The file "a.bin" could not be downloaded (the platform answered 404). Your message was not passed on; please send it again.',
    });
  });

  it('reads mediaMaxMb from the account over the section, 20 by default', () => {
    expect(mediaMaxMb({}, 'default')).toBe(20);
    expect(mediaMaxMb({ mediaMaxMb: 5, accounts: { ops: { mediaMaxMb: 1 } } }, 'ops')).toBe(1);
    expect(mediaMaxMb({ mediaMaxMb: 5, accounts: { ops: {} } }, 'other')).toBe(5);
  });

  it.each([
    [{}, 'files: must be an array when given'],
    [[{ name: 'a', mimeType: 'text/plain' }], 'files[0]: needs either data (a Buffer) or download (a function)'],
    [[{ name: 1, mimeType: 'text/plain', data: Buffer.alloc(0) }], 'files[0].name: must be a string'],
    [[{ name: 'a', mimeType: 'text/plain', data: Buffer.alloc(0), size: -1 }], 'files[0].size: must be a number of bytes when given'],
    [Array.from({ length: 21 }, () => ({ name: 'a', mimeType: 'a/b', data: Buffer.alloc(0) })), 'files: at most 20 files a message'],
  ])('names what is wrong with files %#', (files, problem) => {
    expect(filesProblem(files)).toBe(problem);
  });
});
