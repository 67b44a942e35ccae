import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Injectable } from '@nestjs/common';
import { conflict } from '../../common/errors/app-error';
import { ConfigStore, ConfigWriter, invalidConfig, restoreRedactedSecrets } from '../config';
import { ConfigWriteService, type ConfigWriteAnswer, type ConfigWriteOptions } from './config-write.service';
import { refuseNewLiteralSecrets } from './literal-secrets';
import { redactedText } from './redacted-diff';

/** `GET /admin/config/file`: the root file as written, for an editor. */
export interface ConfigFileView {
  revision: string;
  configPath: string;
  /** The root file's text, comments and layout as they are, each literal secret shown as `[redacted]`. */
  text: string;
  /** The files it `$include`s, relative to it (edited in place, not through this text). */
  includes: string[];
}

/**
 * The root config file as text: read with its literal secrets redacted, and written back whole. A text read
 * redacted can be saved as it is: each `"[redacted]"` at a secret's path keeps the secret the file holds there
 * (config's `restoreRedactedSecrets`). The write goes through the same checks as a PATCH (If-Match, the whole
 * result validated, no new literal secret unless allowed) and is recorded in the history like one.
 */
@Injectable()
export class ConfigFileService {
  constructor(
    private readonly store: ConfigStore,
    private readonly writer: ConfigWriter,
    private readonly writes: ConfigWriteService,
  ) {}

  async read(): Promise<ConfigFileView> {
    const current = this.store.current();
    let text: string;
    try {
      text = await fs.readFile(current.configPath, 'utf8');
    } catch (err) {
      throw conflict(`cannot read ${current.configPath} (${(err as NodeJS.ErrnoException).code})`);
    }
    const dir = path.dirname(current.configPath);
    return {
      revision: current.revision,
      configPath: current.configPath,
      text: redactedText(text),
      includes: current.files.slice(1).map((f) => path.relative(dir, f)),
    };
  }

  async write(text: string, options: ConfigWriteOptions): Promise<ConfigWriteAnswer> {
    const result = await this.writer.writeFiles(
      (files) => {
        const root = files[0];
        const restored = restoreRedactedSecrets(text, root.text);
        if (restored.issues.length) throw invalidConfig(restored.issues);
        return restored.text === root.text ? new Map() : new Map([[root.path, restored.text]]);
      },
      {
        ifMatch: options.ifMatch,
        verify: refuseNewLiteralSecrets(options.allowLiteralSecrets),
      },
    );
    return this.writes.answer(result);
  }
}
