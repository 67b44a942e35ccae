import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ConfigStore, ConfigWriter, type EditPlan, type ResolvedAgent, type ResolvedBinding } from '../config';
import {
  AgentFields,
  AgentNotInFileError,
  BindingMatchInput,
  planAddAgent,
  planAddBinding,
  planDeleteAgent,
  planRemoveBinding,
  planSetIdentity,
  planUpdateAgent,
} from './agent-edits';
import { AgentsService } from './agents.service';

export interface AgentView {
  id: string;
  name?: string;
  isDefault: boolean;
  model: string;
  workspace: string;
  agentDir: string;
  identity: ResolvedAgent['identity'];
  sandbox: ResolvedAgent['sandbox'];
  tools: ResolvedAgent['tools'];
  bindings: ResolvedBinding[];
}

/** Admin CRUD over agents and bindings: every write goes through the comment-preserving ConfigWriter. */
@Injectable()
export class AgentsAdminService {
  constructor(
    private readonly agents: AgentsService,
    private readonly writer: ConfigWriter,
    private readonly store: ConfigStore,
  ) {}

  list(): AgentView[] {
    return this.agents.list().map((a) => this.view(a));
  }

  get(id: string): AgentView {
    return this.view(this.agents.get(id));
  }

  async create(id: string, fields: AgentFields, ifMatch: string): Promise<{ agent: AgentView; revision: string }> {
    const revision = await this.write(planAddAgent(id, fields), ifMatch);
    return { agent: this.get(id), revision };
  }

  async update(id: string, fields: AgentFields, ifMatch: string): Promise<{ agent: AgentView; revision: string }> {
    this.agents.get(id);
    const revision = await this.write(planUpdateAgent(id, fields), ifMatch, id);
    return { agent: this.get(id), revision };
  }

  async setIdentity(
    id: string,
    identity: NonNullable<AgentFields['identity']>,
    ifMatch: string,
  ): Promise<{ agent: AgentView; revision: string }> {
    this.agents.get(id);
    const revision = await this.write(planSetIdentity(id, identity), ifMatch, id);
    return { agent: this.get(id), revision };
  }

  async remove(id: string, ifMatch: string): Promise<{ revision: string }> {
    this.agents.get(id);
    return { revision: await this.write(planDeleteAgent(id), ifMatch, id) };
  }

  async addBinding(id: string, match: BindingMatchInput, ifMatch: string): Promise<{ bindings: ResolvedBinding[]; revision: string }> {
    this.agents.get(id);
    const revision = await this.write(planAddBinding(id, match), ifMatch);
    return { bindings: this.agents.bindingsOf(id), revision };
  }

  listBindings(): ResolvedBinding[] {
    return [...this.store.current().config.bindings];
  }

  async removeBinding(index: number, ifMatch: string): Promise<{ revision: string }> {
    return { revision: await this.write(planRemoveBinding(index), ifMatch) };
  }

  private async write(plan: EditPlan, ifMatch: string, agentId?: string): Promise<string> {
    try {
      return (await this.writer.write(plan, { ifMatch })).revision;
    } catch (err) {
      // The agent exists (we checked) but not in the root file: it comes from an $include.
      if (err instanceof AgentNotInFileError && agentId) {
        const files = [...new Set(this.store.current().includedPaths.values())];
        throw new AppError(
          ErrorCode.Conflict,
          `agent "${err.agentId}" is defined in an included file (${files.join(', ')}); edit that file instead`,
        );
      }
      throw err;
    }
  }

  private view(a: ResolvedAgent): AgentView {
    return {
      id: a.id,
      name: a.name,
      isDefault: a.isDefault,
      model: a.model,
      workspace: a.workspace,
      agentDir: a.agentDir,
      identity: a.identity,
      sandbox: a.sandbox,
      tools: a.tools,
      bindings: this.agents.bindingsOf(a.id),
    };
  }
}
