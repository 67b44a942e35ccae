export {
  type AttachmentFile,
  type AttachmentPlan,
  type AttachmentPlanOptions,
  type AttachmentRecord,
  isTextLike,
  planAttachments,
  withAttachments,
} from './attachment-plan';
export { attachmentDir, safeAttachmentName, writeAttachments } from './attachment-store';
