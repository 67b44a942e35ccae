import type { WebClient } from '@slack/web-api';
import { SlackFiles } from './slack-files';

describe('SlackFiles', () => {
  it('downloads url_private_download with the bot token, only from Slack’s file host or the apiUrl’s host', async () => {
    const request = jest.fn().mockResolvedValue({ status: 200, headers: {}, body: Buffer.from('pdf') });
    const files = new SlackFiles({} as WebClient, { botToken: 'xoxb-1', apiUrl: 'http://127.0.0.1:5000/api/' }, { request });
    const [slack, local, elsewhere] = files.inboundFiles([
      {
        name: 'a.pdf',
        mimetype: 'application/pdf',
        size: 3,
        url_private: 'https://files.slack.com/files-pri/T-F/a.pdf',
        url_private_download: 'https://files.slack.com/files-pri/T-F/download/a.pdf',
      },
      { name: 'b', url_private: 'http://127.0.0.1:5000/files-pri/T-F/b' },
      { name: 'c', url_private_download: 'https://attacker.example/c' },
    ]);
    expect(files.inboundFiles([{ name: 'hidden' }])).toEqual([]);
    await expect(slack.download!(50)).resolves.toEqual(Buffer.from('pdf'));
    await expect(local.download!(50)).resolves.toEqual(Buffer.from('pdf'));
    expect(request.mock.calls.map(([r]) => [r.url, r.headers.authorization, r.maxBytes])).toEqual([
      ['https://files.slack.com/files-pri/T-F/download/a.pdf', 'Bearer xoxb-1', 50],
      ['http://127.0.0.1:5000/files-pri/T-F/b', 'Bearer xoxb-1', 50],
    ]);
    await expect(elsewhere.download!(50)).rejects.toThrow("the file is on attacker.example, which is not Slack's file host");
    expect(request).toHaveBeenCalledTimes(2);
  });
});
