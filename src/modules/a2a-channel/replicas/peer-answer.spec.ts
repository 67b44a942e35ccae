import { forwardedAnswer, readForwardedAnswer } from './peer-answer';

describe('a peer answer forwarded to another replica', () => {
  it('comes back as it was read: text, message id, raw files with their bytes, url files', () => {
    const answer = {
      messageId: 'm-1',
      text: 'Paris',
      files: [
        { kind: 'raw' as const, part: 1, filename: 'notes.txt', mediaType: 'text/plain', bytes: Buffer.from([0, 1, 2, 250, 255]) },
        { kind: 'url' as const, part: 2, url: 'https://files.example/x.pdf', mediaType: 'application/pdf' },
      ],
    };
    const json = JSON.parse(JSON.stringify(forwardedAnswer(answer))) as unknown;
    expect(readForwardedAnswer(json)).toEqual(answer);
  });

  it('a message that is not an answer is refused (undefined), whatever is wrong with it', () => {
    for (const bad of [
      null,
      'Paris',
      { text: 'x', files: [] },
      { messageId: 'm', text: 'x' },
      { messageId: 'm', text: 'x', files: [{ kind: 'raw' }] },
    ])
      expect(readForwardedAnswer(bad)).toBeUndefined();
  });
});
