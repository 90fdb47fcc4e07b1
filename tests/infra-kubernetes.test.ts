// The Kubernetes example (infra/kubernetes) checked for what can drift from the code: the apps of
// docs/api.md#processes and their ports, the probes, the command lines of the image, the migration step,
// secrets kept out of plain values, and an Ingress that routes exactly as the shipped nginx config.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingressServiceFor, loadManifests, type Manifest } from '../infra/kubernetes/manifests';
import {
  APP_COMMAND,
  APPS,
  appWorkingDir,
  MIGRATE_COMMAND,
  MIGRATE_WORKING_DIR,
  repoRoot,
} from '../infra/local/apps';
import { nginxLocationFor, nginxUpstreamFor, SHIPPED_NGINX_CONF } from '../infra/local/nginx';

const manifests = loadManifests();
const SECRET_NAMES = [
  'DATABASE_URL',
  'REDIS_URL',
  'KV_PASSWORD',
  'CHAT_BOT_TOKEN',
  'CHAT_SIGNING_SECRET',
  'AI_API_KEY',
  'BOOTSTRAP_ADMIN_PASSWORD',
];

const one = (kind: string, name: string): Manifest => {
  const found = manifests.filter((m) => m.kind === kind && m.metadata.name === name);
  expect(found, `${kind} ${name}`).toHaveLength(1);
  return found[0]!;
};
// biome-ignore lint/suspicious/noExplicitAny: parsed manifests
const containerOf = (workload: Manifest): any => workload.spec.template.spec.containers[0];
// biome-ignore lint/suspicious/noExplicitAny: parsed manifests
const envOf = (container: any, name: string) => container.env?.find((e: { name: string }) => e.name === name);

/** The exec-form CMD of infra/Dockerfile's last stage. */
function dockerfileCmd(): string[] {
  const lines = readFileSync(join(repoRoot, 'infra/Dockerfile'), 'utf8').split('\n');
  const cmd = lines.filter((line) => line.startsWith('CMD ')).at(-1);
  return JSON.parse(cmd!.slice('CMD '.length));
}

/** The default port an app listens on, from its own main.ts. */
function defaultPortOf(app: string): number {
  const main = readFileSync(join(repoRoot, 'apps', app, 'src/main.ts'), 'utf8');
  return Number(/defaultPort:\s*(\d+)/.exec(main)![1]);
}

describe('the Kubernetes manifests', () => {
  it('parse, and name no namespace (choose one at apply time)', () => {
    expect(manifests.length).toBeGreaterThan(0);
    expect(manifests.filter((m) => m.metadata?.namespace)).toEqual([]);
    const kustomization = manifests.find((m) => m.kind === 'Kustomization')!;
    const workloads = [...new Set(manifests.filter((m) => m.kind !== 'Kustomization').map((m) => m.file))];
    // The Job is applied on its own, before the apps (migrate-job.yaml explains the order).
    expect([...(kustomization.resources ?? [])].sort()).toEqual(
      workloads.filter((f) => f !== 'migrate-job.yaml'),
    );
  });

  it.each(APPS)('run the %s app as a Deployment with probes on its own port', (app) => {
    const deployment = one('Deployment', `firebreak-${app}`);
    const container = containerOf(deployment);
    const port = Number(envOf(container, 'PORT')?.value);
    expect(port).toBe(defaultPortOf(app));
    const http = container.ports.find((p: { name: string }) => p.name === 'http');
    expect(http.containerPort).toBe(port);
    const probePort = (probe: { httpGet: { port: string | number } }) =>
      typeof probe.httpGet.port === 'number'
        ? probe.httpGet.port
        : container.ports.find((p: { name: string }) => p.name === probe.httpGet.port)?.containerPort;
    expect(container.readinessProbe.httpGet.path).toBe('/ready');
    expect(probePort(container.readinessProbe)).toBe(port);
    expect(container.livenessProbe.httpGet.path).toBe('/health');
    expect(probePort(container.livenessProbe)).toBe(port);
    expect(container.startupProbe.httpGet.path).toBe('/health');
    expect(probePort(container.startupProbe)).toBe(port);
    expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
  });

  it.each(APPS)('let the %s app drain before it is killed, as a non-root user', (app) => {
    const pod = one('Deployment', `firebreak-${app}`).spec.template.spec;
    const container = containerOf(one('Deployment', `firebreak-${app}`));
    const preStop: string[] = container.lifecycle.preStop.exec.command;
    expect(preStop[0]).toBe('sleep');
    // The pause, then the app's own drain of in-flight requests (10 s, packages/runtime).
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(Number(preStop[1]) + 10);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(container.resources.requests).toBeDefined();
    expect(container.resources.limits.memory).toBeDefined();
  });

  it.each(APPS)(
    'start the %s app with the image CMD in its own folder, as the local split deployment does',
    (app) => {
      const container = containerOf(one('Deployment', `firebreak-${app}`));
      expect(container.command).toBeUndefined(); // tini, the image's ENTRYPOINT, stays
      expect(container.args).toEqual(dockerfileCmd());
      expect(container.args).toEqual([...APP_COMMAND]);
      expect(container.workingDir).toBe(`/app/${appWorkingDir(app)}`);
    },
  );

  it('use one image for every app and the migration Job', () => {
    const images = manifests
      .filter((m) => m.kind === 'Deployment' || m.kind === 'Job')
      .map((m) => containerOf(m).image as string);
    expect(images).toHaveLength(APPS.length + 1);
    expect(new Set(images).size).toBe(1);
  });

  it('give each routed app a Service on its http port', () => {
    for (const app of APPS) {
      const service = one('Service', `firebreak-${app}`);
      const deployment = one('Deployment', `firebreak-${app}`);
      expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      expect(service.spec.ports).toEqual([
        { name: 'http', port: Number(envOf(containerOf(deployment), 'PORT').value), targetPort: 'http' },
      ]);
    }
  });

  it('take secrets only from a Secret, and the rest from a ConfigMap of known settings', () => {
    const schema = readFileSync(join(repoRoot, 'packages/config/src/schema.ts'), 'utf8');
    const config = one('ConfigMap', 'firebreak-config');
    for (const key of Object.keys(config.data ?? {})) {
      expect(schema, `ConfigMap key ${key}`).toMatch(new RegExp(`^\\s+${key}:`, 'm'));
      expect(SECRET_NAMES).not.toContain(key);
    }
    for (const workload of manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
      const container = containerOf(workload);
      for (const env of container.env ?? []) {
        if (SECRET_NAMES.includes(env.name))
          expect(env.valueFrom?.secretKeyRef, `${workload.file} ${env.name}`).toBeDefined();
      }
      expect(envOf(container, 'DATABASE_URL')?.valueFrom.secretKeyRef.optional).toBeUndefined();
    }
  });

  it('run the migrations as a Job with the migration command, before the apps', () => {
    const job = one('Job', 'firebreak-migrate');
    const container = containerOf(job);
    expect(container.args).toEqual([...MIGRATE_COMMAND]);
    expect(container.workingDir).toBe(`/app/${MIGRATE_WORKING_DIR}`);
    // The same program as `pnpm db:migrate` (root package.json → packages/db "migrate").
    const rootScripts = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts;
    expect(rootScripts['db:migrate']).toBe('pnpm --filter @firebreak/db migrate');
    const dbScripts = JSON.parse(
      readFileSync(join(repoRoot, MIGRATE_WORKING_DIR, 'package.json'), 'utf8'),
    ).scripts;
    expect(dbScripts.migrate).toBe(`tsx ${MIGRATE_COMMAND.at(-1)}`);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(envOf(container, 'DATABASE_URL').valueFrom.secretKeyRef.name).toBe('firebreak-secrets');
  });

  it('route through the Ingress exactly as the shipped nginx config does, to the apps of docs/api.md#processes', () => {
    const ingress = one('Ingress', 'firebreak');
    const nginx = readFileSync(SHIPPED_NGINX_CONF, 'utf8');
    // Each path with the app that must serve it: comparing the two routings alone would pass while
    // both sent a path to the same wrong app.
    const paths: Array<[path: string, app: 'ingest' | 'api' | 'chat']> = [
      ['/api/v1/webhooks/generic', 'ingest'],
      ['/api/v1/webhooks/metrics-alertmanager', 'ingest'],
      ['/api/v1/webhooks', 'api'],
      ['/api/v1/webhooksx', 'api'],
      ['/api/v1/intake/Zm9vYmFyLWtleS0xMjM0', 'ingest'],
      ['/api/v1/intake/', 'ingest'],
      ['/api/v1/intake', 'api'],
      ['/api/v1/intakes', 'api'],
      ['/v2/enqueue', 'ingest'],
      ['/v2/enqueuex', 'api'],
      ['/generic/2010-04-15/create_event.json', 'ingest'],
      ['/v2/alerts', 'ingest'],
      ['/v2/alerts/disk-db-1/close', 'ingest'],
      ['/v2/alertsx', 'api'],
      ['/v2/incidents', 'api'],
      ['/api/v1/chat/commands', 'chat'],
      ['/api/v1/chat/events', 'chat'],
      ['/api/v1/chat', 'api'],
      ['/api/v1/chatter', 'api'],
      ['/api/v1/incidents', 'api'],
      ['/api/v1/integrations', 'api'],
      ['/api/v1/auth/login', 'api'],
      ['/api/v1', 'api'],
      ['/ready', 'api'],
      ['/', 'api'],
      ['/incidents/42', 'api'],
      ['/assets/index.js', 'api'],
    ];
    for (const [path, app] of paths) {
      expect(nginxUpstreamFor(nginx, path), `nginx ${path}`).toBe(app);
      expect(ingressServiceFor(ingress, path), `Ingress ${path}`).toBe(`firebreak-${app}`);
    }
    // The Ingress's backends are the apps' Services, on their named port.
    for (const service of ['firebreak-ingest', 'firebreak-api', 'firebreak-chat']) one('Service', service);
    // /metrics is closed on both: nginx answers 404 itself; the Ingress (which cannot answer) sends it
    // to ingest, which serves no /metrics and answers 404. Prometheus scrapes the apps' own ports.
    expect(nginxUpstreamFor(nginx, '/metrics')).toBeUndefined();
    expect(nginx).toMatch(/location = \/metrics \{[^}]*return 404/);
    expect(ingressServiceFor(ingress, '/metrics')).toBe('firebreak-ingest');
    expect(ingressServiceFor(ingress, '/metricsx')).toBe('firebreak-api');
    // The one difference: nginx answers /health itself; behind an Ingress it is the API's.
    expect(nginxUpstreamFor(nginx, '/health')).toBeUndefined();
    expect(ingressServiceFor(ingress, '/health')).toBe('firebreak-api');
  });

  it('take 11 MiB bodies on the attachment upload route alone, on both nginx and the Ingress', () => {
    const nginx = readFileSync(SHIPPED_NGINX_CONF, 'utf8');
    const main = one('Ingress', 'firebreak');
    const attachments = one('Ingress', 'firebreak-attachments');
    const annotation = (m: Manifest, name: string) =>
      (m.metadata as { annotations?: Record<string, string> }).annotations?.[
        `nginx.ingress.kubernetes.io/${name}`
      ];
    expect(annotation(main, 'proxy-body-size')).toBe('1m');
    expect(annotation(attachments, 'proxy-body-size')).toBe('11m');
    expect(annotation(attachments, 'use-regex')).toBe('true');
    for (const name of ['proxy-read-timeout', 'proxy-buffering']) {
      expect(annotation(attachments, name), name).toBe(annotation(main, name));
    }
    const [rule] = attachments.spec.rules;
    expect(attachments.spec.rules).toHaveLength(1);
    expect(rule.host).toBe(main.spec.rules[0].host);
    expect(rule.http.paths).toHaveLength(1);
    const [path] = rule.http.paths;
    expect(path.pathType).toBe('ImplementationSpecific');
    expect(path.backend.service.name).toBe('firebreak-api');
    // ingress-nginx anchors the path at its start, case-insensitively; nginx's location is the same regex.
    const ingressRegex = new RegExp(`^${path.path}`, 'i');
    const nginxLocation = `location ~ ^${path.path}`;

    const upload = [
      '/api/v1/incidents/42/attachments',
      '/api/v1/incidents/0b9c6f3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f/attachments',
    ];
    for (const p of upload) {
      expect(ingressRegex.test(p), p).toBe(true);
      expect(nginxLocationFor(nginx, p), p).toBe(nginxLocation);
      expect(nginxUpstreamFor(nginx, p), p).toBe('api');
    }
    const others = [
      '/api/v1/incidents/42/attachments/0b9c6f3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f',
      '/api/v1/incidents/42',
      '/api/v1/incidents/42/notes',
      '/api/v1/incidents/attachments',
      '/api/v1/auth/login',
    ];
    for (const p of others) {
      expect(ingressRegex.test(p), p).toBe(false);
      expect(nginxLocationFor(nginx, p), p).toBe('location ^~ /api/v1/');
    }
    // nginx: 1m everywhere but that nested location, whose block holds the only 11m.
    expect(nginx.match(/client_max_body_size\s+11m;/g)).toHaveLength(1);
    expect(nginx).toMatch(
      /location ~ \^\/api\/v1\/incidents\/\[\^\/\]\+\/attachments\$ \{\s*client_max_body_size 11m;/,
    );
    expect(nginx.match(/^\s*client_max_body_size\s+(\S+);/gm)?.filter((l) => !/1m;|11m;/.test(l))).toEqual(
      [],
    );
  });
});
