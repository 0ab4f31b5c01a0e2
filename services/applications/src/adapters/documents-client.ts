import { DomainError } from '@register/problem';
import type { InternalClient } from '@register/service-kit';
import type { DocumentLinkRef } from '../data-access/database';

export interface DocumentCategory {
  categoryId: string;
  label: string | null;
  description: string | null;
  required: boolean;
  acceptedTypes: string[] | null;
  maxSizeMb: number;
  multiple: boolean;
  allowPostDelivery: boolean;
}

export interface LookedUpDocument {
  documentId: string;
  categoryId: string;
  wizardId: string;
  fileName: string;
  linkedApplicationId: string | null;
}

export interface ApplicationDocument {
  documentId: string;
  categoryId: string;
  fileName: string;
}

/** Outcome of a link call: `rejected` is permanent (422), `unavailable` is worth retrying. */
export type LinkOutcome = { kind: 'linked' } | { kind: 'rejected'; detail: string } | { kind: 'unavailable'; detail: string };

/** The documents service's internal API as this service uses it (the one source of categories). */
export interface DocumentsPort {
  categories(wizardId: string, answers: { diplomaHerkomst?: string | null; taalvaardigheid?: string | null }): Promise<DocumentCategory[]>;
  lookup(owner: string, documentIds: string[]): Promise<LookedUpDocument[]>;
  link(applicationId: string, owner: string, documents: DocumentLinkRef[]): Promise<LinkOutcome>;
  documentsOf(applicationId: string): Promise<ApplicationDocument[]>;
}

function unexpected(what: string, status: number): DomainError {
  return new DomainError('unavailable', `The documents service answered ${status} to ${what}.`);
}

/**
 * How long an answer of `GET /internal/uploads/categories` is reused (docs/decisions-applications.md,
 * "Category cache"). The categories are the documents service's static configuration per wizard; it stays
 * the one source, and a change there reaches submit within this time.
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

export class DocumentsClient implements DocumentsPort {
  private readonly categoryCache = new Map<string, { expiresAt: number; categories: Promise<readonly DocumentCategory[]> }>();

  constructor(
    private readonly client: InternalClient,
    private readonly options: DocumentsClientOptions = {},
  ) {}

  /**
   * The categories for these answers, from a short-lived cache: a successful answer is reused for
   * CATEGORIES_TTL_MS, concurrent callers share one request, and a failure is never cached (the next
   * caller asks again, so a documents service that is down still means 503 once the entry expired).
   */
  async categories(wizardId: string, answers: { diplomaHerkomst?: string | null; taalvaardigheid?: string | null }): Promise<DocumentCategory[]> {
    const q = new URLSearchParams({ wizardId });
    if (answers.diplomaHerkomst) q.set('diplomaHerkomst', answers.diplomaHerkomst);
    if (answers.taalvaardigheid) q.set('taalvaardigheid', answers.taalvaardigheid);
    const path = `/internal/uploads/categories?${q.toString()}`;
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

  private async fetchCategories(path: string): Promise<DocumentCategory[]> {
    const res = await this.client.request<{ categories: DocumentCategory[] }>('GET', path);
    if (res.status !== 200) throw unexpected('categories', res.status);
    return res.body.categories;
  }

  async lookup(owner: string, documentIds: string[]): Promise<LookedUpDocument[]> {
    if (documentIds.length === 0) return [];
    const res = await this.client.request<{ documents: LookedUpDocument[] }>('POST', '/internal/documents/lookup', { owner, documentIds });
    if (res.status !== 200) throw unexpected('lookup', res.status);
    return res.body.documents;
  }

  async link(applicationId: string, owner: string, documents: DocumentLinkRef[]): Promise<LinkOutcome> {
    try {
      const res = await this.client.request<unknown>('POST', '/internal/links', { applicationId, owner, documents });
      if (res.status === 200) return { kind: 'linked' };
      if (res.status === 422) return { kind: 'rejected', detail: 'the documents service refused the link' };
      return { kind: 'unavailable', detail: `documents service answered ${res.status}` };
    } catch (err) {
      if (err instanceof DomainError && err.code === 'unavailable') return { kind: 'unavailable', detail: err.message };
      throw err;
    }
  }

  async documentsOf(applicationId: string): Promise<ApplicationDocument[]> {
    const res = await this.client.request<ApplicationDocument[]>('GET', `/internal/applications/${encodeURIComponent(applicationId)}/documents`);
    if (res.status !== 200) throw unexpected('documents of an application', res.status);
    return res.body;
  }
}
