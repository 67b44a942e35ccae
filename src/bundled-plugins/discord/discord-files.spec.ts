import { DiscordFiles } from './discord-files';

describe('DiscordFiles', () => {
  const ok = { status: 200, headers: {}, body: Buffer.from('bytes') };

  it('downloads from Discord’s CDN or the api’s host, with the limit, and never from another host', async () => {
    const request = jest.fn().mockResolvedValue(ok);
    const files = new DiscordFiles('http://127.0.0.1:4000/api', { request });
    const [cdn, local, elsewhere] = files.inboundFiles([
      { url: 'https://cdn.discordapp.com/attachments/1/2/a.txt?ex=1&is=1&hm=ab', name: 'a.txt', contentType: 'text/plain', size: 5 },
      { url: 'http://127.0.0.1:4000/attachments/1/3/b.bin?ex=1&is=1&hm=ab', name: 'b.bin', size: 5 },
      { url: 'http://169.254.169.254/latest/meta-data', name: 'c', size: 5 },
    ]);
    expect(cdn).toMatchObject({ name: 'a.txt', mimeType: 'text/plain', size: 5 });
    expect(local.mimeType).toBe('application/octet-stream');
    await expect(cdn.download!(100)).resolves.toEqual(Buffer.from('bytes'));
    await expect(local.download!(100)).resolves.toEqual(Buffer.from('bytes'));
    expect(request.mock.calls.map(([r]) => [new URL(r.url).host, r.maxBytes])).toEqual([
      ['cdn.discordapp.com', 100],
      ['127.0.0.1:4000', 100],
    ]);
    await expect(elsewhere.download!(100)).rejects.toThrow("the attachment is on 169.254.169.254, which is not Discord's CDN");
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('says a failed download in words', async () => {
    const files = new DiscordFiles('https://discord.com/api', {
      request: jest.fn().mockRejectedValue(new Error('request to cdn.discordapp.com failed (ECONNRESET)')),
    });
    const [file] = files.inboundFiles([{ url: 'https://cdn.discordapp.com/attachments/1/2/a', name: 'a', size: 1 }]);
    await expect(file.download!(10)).rejects.toThrow('the download from Discord failed: request to cdn.discordapp.com failed (ECONNRESET)');
  });
});
