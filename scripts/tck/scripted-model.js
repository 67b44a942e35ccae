// A scripted OpenAI-compatible chat endpoint (POST /v1/chat/completions, 127.0.0.1 only) for the TCK run that needs
// tasks in TASK_STATE_INPUT_REQUIRED. The TCK asks for them by messageId prefix, which only its own generated SUTs
// understand, so this model reacts to the TCK's message text instead:
// - "TCK prerequisite task creation" with request_input offered: ask for input (the task waits);
// - an answer carrying "TCK history message N": ask again (the task keeps waiting);
// - any other answer: reply with text (the task completes); anything else: echo.
// Usage: node scripts/tck/scripted-model.js [port=18800]
const http = require('node:http');

const port = Number(process.argv[2] || 18800);
let calls = 0;

const askFor = (question) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: `call_${++calls}`, type: 'function', function: { name: 'request_input', arguments: JSON.stringify({ question }) } }],
});

function reply(request) {
  const messages = request.messages || [];
  const last = messages[messages.length - 1] || {};
  const canAsk = (request.tools || []).some((t) => t.function && t.function.name === 'request_input');
  const text = String(last.content || '');
  if (last.role === 'tool' && canAsk && text.includes('TCK history message')) return askFor('Noted; send the next message.');
  if (last.role === 'tool') return { role: 'assistant', content: `Thanks, received: ${text.slice(0, 200)}` };
  if (last.role === 'user' && canAsk && text.includes('TCK prerequisite task creation')) return askFor('Please send more input.');
  return { role: 'assistant', content: `[scripted] ${text.slice(0, 200)}` };
}

http
  .createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const message = reply(JSON.parse(body || '{}'));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `cmpl-${calls}`,
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        }),
      );
    });
  })
  .listen(port, '127.0.0.1', () => console.log(`scripted model on http://127.0.0.1:${port}/v1`));
