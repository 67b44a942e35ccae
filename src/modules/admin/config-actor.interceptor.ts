import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { runAsConfigActor } from '../../common/auth/config-actor';
import { getPrincipal } from './admin-principal';

/**
 * Runs every admin handler as its caller's config actor, so a config write it makes is attributed to the
 * admin identity in the config history. The handler is invoked on subscription, inside the actor's context.
 */
@Injectable()
export class ConfigActorInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const principal = getPrincipal(ctx.switchToHttp().getRequest<object>());
    if (!principal) return next.handle();
    return new Observable((subscriber) =>
      runAsConfigActor({ subject: principal.subject, source: 'api' }, () => next.handle().subscribe(subscriber)),
    );
  }
}
