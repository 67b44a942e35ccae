// The API contract over a whole test run: before the first test, every gateway the tests boot is asked to
// record its answers (CLAWGATE_RESPONSE_LOG_DIR, inherited by the jest workers and passed on to gateway
// processes); after the last one, each answer is checked against the OpenAPI document its gateway served, and
// the run fails listing every violation (operation, status, JSON pointer, message).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ENV = 'CLAWGATE_RESPONSE_LOG_DIR';

class OpenApiContractReporter {
  constructor() {
    this.error = undefined;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clawgate-responses-'));
    process.env[ENV] = this.dir;
  }

  onRunComplete() {
    require('ts-node').register({ transpileOnly: true, project: path.join(__dirname, '..', '..', '..', 'tsconfig.json') });
    const { checkRecordedResponses } = require('./recorded-responses');
    const { formatViolations } = require('./response-contract');
    let report;
    try {
      report = checkRecordedResponses(this.dir);
    } catch (err) {
      // e.g. a schema Ajv's strict mode refuses: the document itself is wrong.
      process.stderr.write(`\nAPI contract: cannot check the responses: ${err.message}\n`);
      this.error = err;
      return;
    }
    const summary = `${report.responses} responses of ${report.gateways} gateway processes`;
    if (report.groups.length) {
      const text = formatViolations(report.groups);
      process.stderr.write(
        `\nAPI contract: ${report.groups.length} violations of the OpenAPI document (/docs-json) in ${summary}:\n${text}\n`,
      );
      this.error = new Error(`${report.groups.length} violations of the OpenAPI document (listed above)`);
    } else if (report.responses) {
      process.stderr.write(`\nAPI contract: ${summary} match the OpenAPI document\n`);
    }
    if (process.env.CLAWGATE_KEEP_RESPONSE_LOG) process.stderr.write(`responses kept in ${this.dir}\n`);
    else fs.rmSync(this.dir, { recursive: true, force: true });
  }

  getLastError() {
    return this.error;
  }
}

module.exports = OpenApiContractReporter;
