// Reads the Kubernetes manifests of this folder, for tests/infra-kubernetes.test.ts: every document of
// every YAML file, and the Ingress's routing as Kubernetes defines it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const MANIFEST_DIR = import.meta.dirname;

// Only the fields the checks read; everything else is left untyped.
export interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: a parsed manifest of any kind
  spec?: any;
  data?: Record<string, string>;
  resources?: string[];
}

/** Every document of every .yaml file here; a file that does not parse cleanly throws. */
export function loadManifests(dir = MANIFEST_DIR): Manifest[] {
  const manifests: Manifest[] = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const problems = [...doc.errors, ...doc.warnings];
      if (problems.length > 0) throw new Error(`${file}: ${problems.map((p) => p.message).join('; ')}`);
      const value = doc.toJS() as Omit<Manifest, 'file'> | null;
      if (value) manifests.push({ file, ...value });
    }
  }
  return manifests;
}

interface IngressPath {
  path: string;
  pathType: 'Exact' | 'Prefix' | 'ImplementationSpecific';
  backend: { service: { name: string } };
}

/**
 * The Service an Ingress sends `path` to, by the Ingress API's rules: Exact matches the path as is;
 * Prefix matches whole path elements; the longest match wins, and Exact beats Prefix on a tie.
 */
export function ingressServiceFor(ingress: Manifest, path: string): string | undefined {
  const paths: IngressPath[] = ingress.spec.rules.flatMap(
    (rule: { http: { paths: IngressPath[] } }) => rule.http.paths,
  );
  const matches = paths.filter((p) => {
    if (p.pathType === 'Exact') return path === p.path;
    if (p.pathType !== 'Prefix') throw new Error(`unsupported pathType ${p.pathType}`);
    const prefix = p.path.replace(/\/+$/, '');
    return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
  });
  matches.sort(
    (a, b) =>
      b.path.replace(/\/+$/, '').length - a.path.replace(/\/+$/, '').length ||
      Number(b.pathType === 'Exact') - Number(a.pathType === 'Exact'),
  );
  return matches[0]?.backend.service.name;
}
