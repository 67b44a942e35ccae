// The reader is shared with the OpenAI-compatible endpoint.
export { readLimitedBody, type BodyResult } from '../../common/http/limited-body';
