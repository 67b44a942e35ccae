import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { attachmentDir, safeAttachmentName, writeAttachments } from './attachment-store';

describe('safeAttachmentName', () => {
  it.each([
    ['report.pdf', '4-report.pdf'],
    ['../../etc/passwd', '4-passwd'],
    ['..\\..\\boot.ini', '4-boot.ini'],
    ['..', '4-attachment'],
    ['.bashrc', '4-bashrc'],
    ['my file (1).txt', '4-my_file__1_.txt'],
    ['naïve\u0000name\n.txt', '4-na_ve_name_.txt'],
    [undefined, '4-attachment'],
  ])('%j → %s', (filename, expected) => {
    expect(safeAttachmentName(4, filename)).toBe(expected);
  });

  it('shortens long names and keeps the extension', () => {
    const name = safeAttachmentName(0, `${'a'.repeat(300)}.tar.gz`);
    expect(name).toBe(`0-${'a'.repeat(97)}.gz`);
  });
});

describe('writeAttachments', () => {
  it('writes files 0600 in directories 0700 under the state dir, never over an existing file', async () => {
    const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-attach-'));
    try {
      const dir = attachmentDir('main', 'task-1');
      await writeAttachments(stateDir, dir, [{ name: '0-a.bin', bytes: Buffer.from([1, 2, 3]) }]);
      const file = path.join(stateDir, 'agents', 'main', 'attachments', 'task-1', '0-a.bin');
      expect(await fs.readFile(file)).toEqual(Buffer.from([1, 2, 3]));
      if (process.platform !== 'win32') {
        expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
        expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
      }
      await expect(writeAttachments(stateDir, dir, [{ name: '0-a.bin', bytes: Buffer.from([9]) }])).rejects.toThrow(/EEXIST/);
      await expect(writeAttachments(stateDir, dir, [{ name: '../escape', bytes: Buffer.from([9]) }])).rejects.toThrow(
        /leaves its directory/,
      );
    } finally {
      await fs.rm(stateDir, { recursive: true, force: true });
    }
  });
});
