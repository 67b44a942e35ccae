// Tests boot real gateways; their logs would drown the test output. CLAWGATE_LOG_LEVEL=info shows them.
process.env.CLAWGATE_LOG_LEVEL = process.env.CLAWGATE_LOG_LEVEL || 'silent';
