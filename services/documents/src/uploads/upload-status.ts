import type { Context } from '../context';
import { statusOf } from './document';
import { findByLocalIds } from './documents.repository';
import type { UploadStatusItem } from './uploads.schemas';

/** Polling by the client's own ids: another owner's localId is simply `onbekend`. */
export async function uploadStatus(ctx: Context, owner: string, localIds: string[]): Promise<UploadStatusItem[]> {
  const found = await findByLocalIds(ctx.db, owner, [...new Set(localIds)]);
  return localIds.map((localId) => {
    const row = found.get(localId);
    return row
      ? { localId, status: statusOf(row), documentId: row.id }
      : { localId, status: 'onbekend', documentId: null };
  });
}
