import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { bearerToken } from '../../common/http/bearer-token';
import { findBySecret, secretIndexPerSource } from '../../common/secrets/secret-match';
import type { MetricsSettings } from '../config';
import type { MetricsView } from '../metrics';

export const METRICS_CHALLENGE = 'Bearer realm="clawgate metrics"';

/** Digests per settings object (a snapshot's objects never change). An unset token is left out: it never matches. */
const tokenIndex = secretIndexPerSource((settings: MetricsSettings) => [{ secret: settings.token, value: true }]);

/**
 * What a `GET /metrics` caller may read (docs/operations.md#who-may-scrape). Without `gateway.metrics.token`: anyone,
 * the public names only. With it: the bearer token is required (compared by digest, timing-safe) and shows every name;
 * anything else is a 401 — also while the token's ${VAR} is unset, so a missing variable closes the endpoint, never
 * opens it. `challenge` is called before a 401.
 */
export function metricsView(settings: MetricsSettings, headers: IncomingHttpHeaders, challenge: () => void): MetricsView {
  if (!settings.tokenRequired) return 'public-names';
  if (findBySecret(bearerToken(headers.authorization, 'single-word'), tokenIndex(settings))) return 'every-name';
  challenge();
  throw new AppError(ErrorCode.Unauthenticated, 'the metrics token is required: send "Authorization: Bearer <gateway.metrics.token>"');
}
