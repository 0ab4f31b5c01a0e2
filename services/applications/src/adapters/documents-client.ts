import { z } from 'zod';
import { documents } from '@register/contracts';
import { DomainError, type FieldError } from '@register/problem';
import type { InternalClient } from '@register/service-kit';
import type { CaseDocument, CaseDocumentsPort } from '../assessment/case-documents';
import type { DocumentContent, DocumentContentPort } from '../case-mirror/document-content';
import type { DocumentLinkPort, LinkOutcome } from '../document-linking/document-links';
import type { CategoryRule, LinkCandidate, SubmitDocumentsPort } from '../submission/submission-documents';

const api = documents.internal;
type LinkRequest = z.input<typeof api.linkRequest>;

/** UploadCategories (spec), as far as submit reads it. */
const categoriesResponse = z.object({
  categories: z.array(
    z.object({ categoryId: z.string(), required: z.boolean(), allowPostDelivery: z.boolean() }).loose(),
  ),
});

function unexpected(what: string, status: number): DomainError {
  return new DomainError('unavailable', `The documents service answered ${status} to ${what}.`);
}

/** An answer that breaks the contract is treated like no answer: the request fails with 503, nothing changed. */
function parsed<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success)
    throw new DomainError('unavailable', `The documents service answered ${what} outside its contract.`);
  return result.data;
}

/**
 * How long an answer of the categories API is reused (ADR 0060).
 * The categories are the documents service's static configuration per wizard; it stays the one source, and
 * a change there reaches submit within this time.
 */
export const CATEGORIES_TTL_MS = 60_000;
/** Distinct category queries kept; there are a handful (wizard × the answers that decide `required`). */
const CATEGORIES_MAX_ENTRIES = 64;

export interface DocumentsClientOptions {
  /** 0 turns the category cache off. */
  categoriesTtlMs?: number;
  /** Milliseconds clock for the cache (tests). */
  now?: () => number;
}

/**
 * The documents service's internal API (the one source of categories and of the rule that a document may be linked).
 */
export class DocumentsClient implements SubmitDocumentsPort, DocumentLinkPort, CaseDocumentsPort, DocumentContentPort {
  private readonly categoryCache = new Map<
    string,
    { expiresAt: number; categories: Promise<readonly CategoryRule[]> }
  >();

  constructor(
    private readonly client: InternalClient,
    private readonly options: DocumentsClientOptions = {},
  ) {}

  /**
   * The categories for these answers, from a short-lived cache: a successful answer is reused for
   * CATEGORIES_TTL_MS, concurrent callers share one request, and a failure is never cached (the next
   * caller asks again, so a documents service that is down still means 503 once the entry expired).
   */
  async categories(
    wizardId: string,
    answers: { diplomaHerkomst?: string | null; taalvaardigheid?: string | null },
  ): Promise<CategoryRule[]> {
    const query: Record<string, string> = { wizardId };
    if (answers.diplomaHerkomst) query.diplomaHerkomst = answers.diplomaHerkomst;
    if (answers.taalvaardigheid) query.taalvaardigheid = answers.taalvaardigheid;
    const path = `${api.paths.categories}?${new URLSearchParams(query).toString()}`;
    const ttl = this.options.categoriesTtlMs ?? CATEGORIES_TTL_MS;
    if (ttl <= 0) return this.fetchCategories(path);
    const now = (this.options.now ?? Date.now)();
    const cached = this.categoryCache.get(path);
    if (cached && cached.expiresAt > now) return [...(await cached.categories)];
    if (this.categoryCache.size >= CATEGORIES_MAX_ENTRIES) this.categoryCache.clear();
    const categories = this.fetchCategories(path).then((list) => Object.freeze(list.map((c) => Object.freeze(c))));
    const entry = { expiresAt: now + ttl, categories };
    this.categoryCache.set(path, entry);
    categories.catch(() => {
      if (this.categoryCache.get(path) === entry) this.categoryCache.delete(path);
    });
    return [...(await categories)];
  }

  private async fetchCategories(path: string): Promise<CategoryRule[]> {
    const res = await this.client.request<unknown>('GET', path);
    if (res.status !== 200) throw unexpected('categories', res.status);
    return parsed(categoriesResponse, res.body, 'categories').categories;
  }

  /** Whether these documents may be linked: the documents service's rule, whose refusals submit reports as they are. */
  async checkLink(request: LinkRequest): Promise<FieldError[]> {
    const res = await this.client.request<unknown>('POST', api.paths.linkCheck, request);
    if (res.status !== 200) throw unexpected('link-check', res.status);
    return parsed(api.linkCheckResponse, res.body, 'link-check').rejected;
  }

  async link(applicationId: string, owner: string, documentRefs: LinkCandidate[]): Promise<LinkOutcome> {
    const body: LinkRequest = { applicationId, owner, documents: documentRefs };
    try {
      const res = await this.client.request<unknown>('POST', api.paths.link, body);
      if (res.status === 200) {
        // Linking is idempotent there: an answer outside the contract is retried like no answer.
        return api.linkResponse.safeParse(res.body).success
          ? { kind: 'linked' }
          : { kind: 'unavailable', detail: 'link answer outside the contract' };
      }
      if (res.status === 422) return { kind: 'rejected', detail: 'the documents service refused the link' };
      return { kind: 'unavailable', detail: `documents service answered ${res.status}` };
    } catch (err) {
      if (err instanceof DomainError && err.code === 'unavailable') return { kind: 'unavailable', detail: err.message };
      throw err;
    }
  }

  async documentsOf(applicationId: string): Promise<CaseDocument[]> {
    const res = await this.client.request<unknown>(
      'GET',
      api.paths.documentsOf.replace(':applicationId', encodeURIComponent(applicationId)),
    );
    if (res.status !== 200) throw unexpected('documents of an application', res.status);
    return parsed(api.documentsOfResponse, res.body, 'documents of an application');
  }

  /**
   * A linked document's bytes, read into one buffer of the announced length (the mirror holds one document per case at
   * a time).
   */
  async contentOf(applicationId: string, documentId: string): Promise<DocumentContent | null> {
    const path = api.paths.content
      .replace(':applicationId', encodeURIComponent(applicationId))
      .replace(':documentId', encodeURIComponent(documentId));
    const res = await this.client.open(path, { timeoutMs: CONTENT_TIMEOUT_MS });
    if (res.status === 404) {
      res.discard();
      return null;
    }
    const length = res.header('content-length');
    const size = length === null ? Number.NaN : Number(length);
    const contentType = res.header('content-type');
    if (res.status !== 200 || !Number.isSafeInteger(size) || size < 0 || !contentType) {
      res.discard();
      throw unexpected('document content', res.status);
    }
    return {
      bytes: await readExactly(res.body, size),
      contentType,
      fileName: fileNameOf(res.header('content-disposition')) ?? documentId,
    };
  }
}

/** A document of the largest category takes well under this on a LAN; a stalled transfer is the service being away. */
const CONTENT_TIMEOUT_MS = 60_000;

/**
 * The body copied into one buffer of `size` bytes as it arrives; a body cut short or longer than announced is no
 * answer.
 */
async function readExactly(body: AsyncIterable<Buffer>, size: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  try {
    for await (const chunk of body) {
      if (at + chunk.length > size) throw new Error('longer than its Content-Length');
      bytes.set(chunk, at);
      at += chunk.length;
    }
  } catch (err) {
    throw Object.assign(new DomainError('unavailable', 'The documents service cut the document short.'), {
      cause: err,
    });
  }
  if (at !== size) throw new DomainError('unavailable', 'The documents service cut the document short.');
  return bytes;
}

/**
 * The file name of `Content-Disposition: attachment; filename*=UTF-8''…` (RFC 6266/5987, as the documents service
 * writes it).
 */
export function fileNameOf(disposition: string | null): string | null {
  const encoded = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition ?? '')?.[1];
  if (!encoded) return null;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}
