# syntax=docker/dockerfile:1
# clawgate container image: docs/deploy.md says how to build and run it and what was checked.
#   docker build -t clawgate .
#   docker run -d -p 18789:18789 -v clawgate-state:/var/lib/clawgate \
#     -v "$PWD/openclaw.json:/etc/clawgate/openclaw.json" -e CLAWGATE_ADMIN_TOKEN=... clawgate

ARG NODE_VERSION=20

# ---- build: all dependencies (dev included), TypeScript → dist/, then drop the dev dependencies ----------
FROM node:${NODE_VERSION}-bookworm-slim AS build
# better-sqlite3 is a native module: npm ci uses a prebuilt binary when one matches this Node.js and libc,
# else compiles it with node-gyp, which needs python3, make and a C++ compiler.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# When it compiles, node-gyp takes the Node.js headers the image ships in /usr/local/include/node instead of
# downloading them.
ENV npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The native module compiled above stays in node_modules; only the dev dependencies go.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: Node.js, production dependencies and the compiled gateway; no compiler, no sources --------
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    OPENCLAW_CONFIG_PATH=/etc/clawgate/openclaw.json \
    OPENCLAW_STATE_DIR=/var/lib/clawgate \
    CLAWGATE_LOG_LEVEL=info
# A dedicated unprivileged user owns the state dir; the config dir is writable by it too, because admin API
# and CLI edits rewrite openclaw.json (temp file + rename in the same directory). Its uid and gid are fixed
# (10001) so an orchestrator can check it is not root and give volumes to it (deploy/k8s/deployment.yaml).
RUN groupadd --system --gid 10001 clawgate \
 && useradd --system --uid 10001 --gid clawgate --home-dir /var/lib/clawgate --shell /usr/sbin/nologin clawgate \
 && install -d -o clawgate -g clawgate -m 0700 /var/lib/clawgate \
 && install -d -o clawgate -g clawgate -m 0750 /etc/clawgate
WORKDIR /opt/clawgate
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The web console's static files and the config JSON Schema it serves (docs/console.md): no build step.
COPY public ./public
COPY schemas/openclaw.schema.json ./schemas/openclaw.schema.json
COPY deploy/healthcheck.js ./deploy/healthcheck.js
COPY --chown=clawgate:clawgate deploy/openclaw.container.json /etc/clawgate/openclaw.json
USER clawgate
# Sessions, A2A tasks, memory indexes, the audit log and the last good config live here.
VOLUME ["/var/lib/clawgate"]
EXPOSE 18789
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["node", "/opt/clawgate/deploy/healthcheck.js"]
STOPSIGNAL SIGTERM
# Config and state dir come from OPENCLAW_CONFIG_PATH and OPENCLAW_STATE_DIR (above); append flags to
# override, e.g. `docker run … clawgate --port 8080`.
ENTRYPOINT ["node", "/opt/clawgate/dist/cli.js", "gateway"]
