import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RecordedResponse } from '../../../src/common/http/response-recorder';
import { groupViolations, ResponseContract, type OpenApiDocument, type Violation } from './response-contract';

export interface ContractReport {
  responses: number;
  gateways: number;
  groups: { violation: Violation; count: number }[];
}

/**
 * Checks what every gateway process of a test run recorded (src/common/http/response-recorder.ts) against the
 * document that same process served.
 */
export function checkRecordedResponses(dir: string, documentText?: string): ContractReport {
  const files = readdirSync(dir).filter((f) => /^responses-\d+\.jsonl$/.test(f));
  const contracts = new Map<string, ResponseContract>();
  const violations: Violation[] = [];
  let responses = 0;
  for (const file of files) {
    const pid = /\d+/.exec(file)![0];
    // A given document replaces the recorded ones: the responses of a run checked against an edited document.
    const served = documentText ?? readFileSync(path.join(dir, `openapi-${pid}.json`), 'utf8');
    let contract = contracts.get(served);
    if (!contract) {
      contract = new ResponseContract(JSON.parse(served) as OpenApiDocument);
      contracts.set(served, contract);
    }
    const lines = readFileSync(path.join(dir, file), 'utf8').split('\n');
    // Each line is one write; only a process killed by a crash test could leave its last one cut short.
    if (lines.length && !lines[lines.length - 1].endsWith('}')) lines.pop();
    for (const line of lines) {
      if (!line.trim()) continue;
      responses += 1;
      violations.push(...contract.check(JSON.parse(line) as RecordedResponse));
    }
  }
  return { responses, gateways: files.length, groups: groupViolations(violations) };
}
