import { execFileSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';

/** One rendered Kubernetes object, before its kind is known to be valid. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * Renders a kustomization with the kustomize built into kubectl (`KUBECTL` names another binary). A missing
 * kubectl is an error, not a reason to skip: unchecked manifests are what this package exists to prevent.
 */
export function renderKustomization(dir: string, kubectl = process.env.KUBECTL ?? 'kubectl'): string {
  try {
    return execFileSync(kubectl, ['kustomize', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `'${kubectl}' was not found: the deployment checks render deploy/k8s with \`kubectl kustomize\`. ` +
          'Install kubectl (the project machines have it at /usr/bin/kubectl) or set KUBECTL to its path.',
        { cause: err },
      );
    }
    const stderr = (err as { stderr?: string }).stderr;
    throw new Error(`\`${kubectl} kustomize ${dir}\` failed: ${stderr?.trim() || String(err)}`, { cause: err });
  }
}

/** Parses a multi-document YAML stream; any YAML error or a document that is not an object is thrown. */
export function parseManifests(text: string): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value))
      throw new Error(`a YAML document is not an object: ${JSON.stringify(value)}`);
    const obj = value as Partial<K8sObject>;
    if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || typeof obj.metadata?.name !== 'string') {
      throw new Error(`an object without apiVersion, kind or metadata.name: ${JSON.stringify(value).slice(0, 200)}`);
    }
    objects.push(obj as K8sObject);
  }
  return objects;
}

/** `Kind/name` (and the namespace when set): how problems name an object. */
export function describeObject(obj: K8sObject): string {
  return `${obj.kind}/${obj.metadata.name}`;
}

export function ofKind<T>(objects: K8sObject[], kind: string): T[] {
  return objects.filter((o) => o.kind === kind) as unknown as T[];
}
