// Renders deploy/k8s (base and the example overlay) with `kubectl kustomize` and checks what a cluster would get.
// DEPLOY_K8S_DIR checks another copy of the same layout (base/, overlays/example/) instead.
import path from 'node:path';
import {
  companionProblems,
  configProblems,
  migrationProblems,
  networkProblems,
  spreadProblems,
  type K8sObject,
  parseManifests,
  renderKustomization,
  schemaProblems,
  type Sizing,
  sizingProblems,
  type ExpectedVariable,
  variableProblems,
  workloadProblems,
} from '../src';
import { IDENTITY, ISSUER, MIRROR } from './support/expected-variables';

const k8sDir = process.env.DEPLOY_K8S_DIR ?? path.resolve(__dirname, '../../../deploy/k8s');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sizing = require(path.join(k8sDir, 'sizing.json')) as Sizing;
const services = ['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'];

// Who calls whom (each service's *_URL settings); the gateway is reached only through the ingress controller.
const NETWORK = {
  callers: {
    gateway: null,
    applications: ['gateway', 'documents', 'letters'],
    documents: ['gateway', 'applications', 'letters'],
    letters: ['gateway'],
    reference: ['gateway', 'applications'],
    audit: ['gateway'],
  },
  egressPorts: [53, 5432, 4222],
};

const targets = [
  { name: 'base', dir: 'base', overlay: false },
  { name: 'example overlay', dir: 'overlays/example', overlay: true },
];

const telemetry: ExpectedVariable = { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', default: '' };

function expectedVariables(overlay: boolean): Record<string, ExpectedVariable[]> {
  const expected: Record<string, ExpectedVariable[]> = Object.fromEntries(services.map((name) => [name, [telemetry]]));
  expected['applications']!.push(...MIRROR);
  expected['gateway']!.push(...IDENTITY, ...(overlay ? ISSUER : []));
  return expected;
}

function render(dir: string): K8sObject[] {
  return parseManifests(renderKustomization(path.join(k8sDir, dir)));
}

const names = (objects: K8sObject[], kind: string) =>
  objects
    .filter((o) => o.kind === kind)
    .map((o) => o.metadata.name)
    .sort();

describe.each(targets)('deploy/k8s/$dir', ({ dir, overlay }) => {
  let objects: K8sObject[];
  beforeAll(() => {
    objects = render(dir);
  });

  test(
    'has a Deployment, Service, ' + 'HorizontalPodAutoscaler and PodDisruptionBudget for each of the six services',
    () => {
      for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget']) {
        expect({ kind, names: names(objects, kind) }).toEqual({ kind, names: [...services].sort() });
      }
    },
  );

  test('every object is valid against the Kubernetes schema of its kind', () => {
    expect(schemaProblems(objects)).toEqual([]);
  });

  test(
    'every Deployment has probes, runs non-root on a read-only ' +
      'root filesystem, has resources and a matched preStop drain',
    () => {
      expect(workloadProblems(objects, { requireImageTags: overlay })).toEqual([]);
    },
  );

  test(
    'every Deployment migrates its database in a locked-down ' + 'init container of its own image before it serves',
    () => {
      expect(migrationProblems(objects)).toEqual([]);
    },
  );

  test('every Deployment spreads its pods over zones and over nodes', () => {
    expect(spreadProblems(objects)).toEqual([]);
  });

  test("every server container's requests and limits are what sizing.json's measurements give", () => {
    expect(sizingProblems(objects, sizing)).toEqual([]);
  });

  test(
    'NetworkPolicies deny by default, admit only the gateway from the ingress and ' +
      'each service from its callers, and let each reach DNS, PostgreSQL and NATS',
    () => {
      expect(networkProblems(objects, NETWORK)).toEqual([]);
    },
  );

  test("each Deployment's Service, HorizontalPodAutoscaler and PodDisruptionBudget select its pods", () => {
    expect(companionProblems(objects)).toEqual([]);
  });

  test(
    'no Secret value or secret-named key is in a ConfigMap, ' +
      'and every referenced ConfigMap (and Secret in an overlay) exists',
    () => {
      expect(configProblems(objects, { secretsProvided: overlay })).toEqual([]);
    },
  );

  test(
    'every service gets OTEL_EXPORTER_OTLP_ENDPOINT, applications every mirror setting and the gateway ' +
      'the identity ones (code defaults in the base; ZGW_SECRET and NOTIFICATIES_AUTH from a Secret)',
    () => {
      expect(variableProblems(objects, expectedVariables(overlay), { checkDefaults: !overlay })).toEqual([]);
    },
  );

  if (overlay) {
    test('the overlay provides the secrets as placeholders, sets image tags and exposes only the gateway', () => {
      const secrets = objects.filter((o) => o.kind === 'Secret');
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of secrets) {
        for (const value of Object.values((secret.data ?? {}) as Record<string, string>)) {
          expect(Buffer.from(value, 'base64').toString('utf8')).toContain('PLACEHOLDER');
        }
      }
      const ingresses = objects.filter((o) => o.kind === 'Ingress');
      const backends = JSON.stringify(ingresses.map((i) => i.spec)).match(/"service":\{"name":"[^"]+"/g);
      expect(new Set(backends)).toEqual(new Set(['"service":{"name":"gateway"']));
    });
  }
});

describe('the checks find what they look for (mutations of the rendered example overlay)', () => {
  let pristine: K8sObject[];
  beforeAll(() => {
    pristine = render('overlays/example');
  });

  function mutated(change: (objects: K8sObject[]) => void): K8sObject[] {
    const objects = structuredClone(pristine);
    change(objects);
    return objects;
  }
  const find = (objects: K8sObject[], kind: string, name: string): any => {
    const found = objects.find((o) => o.kind === kind && o.metadata.name.startsWith(name));
    if (!found) throw new Error(`${kind}/${name} is not in the rendered overlay`);
    return found;
  };
  const container = (objects: K8sObject[], name: string): any =>
    find(objects, 'Deployment', name).spec.template.spec.containers[0];

  test('an unknown kind and a field of the wrong type fail the schema check', () => {
    const objects = mutated((o) => {
      o.push({ apiVersion: 'example.org/v1', kind: 'Gizmo', metadata: { name: 'g' } });
      container(o, 'letters').ports[0].containerPort = 'http';
    });
    expect(schemaProblems(objects)).toEqual([
      expect.stringContaining(
        'Deployment/letters: data/spec/template/spec/containers/0/ports/0/containerPort must be integer',
      ),
      'Gizmo/g: unknown kind example.org/v1/Gizmo (not in tools/deploy-check/src/schemas.ts)',
    ]);
  });

  test(
    'a missing probe, a writable root filesystem, root, ' + 'no limits and an unmatched drain fail the workload check',
    () => {
      const objects = mutated((o) => {
        delete container(o, 'gateway').readinessProbe;
        container(o, 'documents').securityContext.readOnlyRootFilesystem = false;
        find(o, 'Deployment', 'audit').spec.template.spec.securityContext.runAsUser = 0;
        delete container(o, 'reference').resources.limits;
        container(o, 'applications').lifecycle.preStop.exec.command = ['sleep', '15'];
      });
      expect(workloadProblems(objects, { requireImageTags: true }).sort()).toEqual([
        'Deployment/applications: container applications: ' +
          'SHUTDOWN_DRAIN_MS 5000 does not match the preStop sleep of 15 s',
        'Deployment/applications: container applications: terminationGracePeriodSeconds ' +
          '30 is not above preStop + SHUTDOWN_DRAIN_MS + SHUTDOWN_TIMEOUT_MS (30 s)',
        'Deployment/audit: pod securityContext.runAsUser is not a non-root uid',
        'Deployment/documents: container documents: readOnlyRootFilesystem is not true',
        'Deployment/gateway: container gateway: no readinessProbe',
        'Deployment/reference: container reference: no resources.limits.cpu',
        'Deployment/reference: container reference: no resources.limits.memory',
      ]);
    },
  );

  test('a new measurement the manifests do not follow fails the sizing check', () => {
    const measured: Sizing = structuredClone(sizing);
    measured.services['documents']!.burst[0]!.cpuMs *= 2;
    measured.services['letters']!.peakResidentMiB += 100;
    delete measured.services['audit'];
    expect(
      sizingProblems(
        mutated(() => undefined),
        measured,
      ).sort(),
    ).toEqual([
      'Deployment/audit: no measurements in deploy/k8s/sizing.json',
      'Deployment/documents: resources.limits.cpu is 1, the measurements give 1750m',
      'Deployment/documents: resources.requests.cpu is 250m, the measurements give 400m',
      'Deployment/letters: resources.limits.memory is 640Mi, the measurements give 896Mi',
    ]);
  });

  test(
    'a spool directory on disk, without a volume or without a sizeLimit above LDV_SPOOL_MAX_MB fails the ' +
      'workload check',
    () => {
      const volume = (o: K8sObject[], name: string): any =>
        find(o, 'Deployment', name).spec.template.spec.volumes.find((v: any) => v.name === 'ldv-spool');
      const objects = mutated((o) => {
        delete volume(o, 'letters').emptyDir.medium;
        volume(o, 'documents').emptyDir.sizeLimit = '8388608';
        delete volume(o, 'audit').emptyDir.sizeLimit;
        const mounts = container(o, 'reference').volumeMounts;
        mounts.splice(
          mounts.findIndex((m: any) => m.name === 'ldv-spool'),
          1,
        );
      });
      expect(workloadProblems(objects, { requireImageTags: true }).sort()).toEqual([
        'Deployment/audit: container audit: the emptyDir at LDV_SPOOL_DIR /ldv-spool has no sizeLimit above ' +
          'LDV_SPOOL_MAX_MB (8 MiB)',
        'Deployment/documents: container documents: the emptyDir at LDV_SPOOL_DIR /ldv-spool has no sizeLimit above ' +
          'LDV_SPOOL_MAX_MB (8 MiB)',
        'Deployment/letters: container letters: the emptyDir at LDV_SPOOL_DIR /ldv-spool is not medium: Memory',
        'Deployment/reference: container reference: LDV_SPOOL_DIR /ldv-spool is not the mount of an emptyDir',
      ]);
    },
  );

  test('an untagged image fails where tags are required', () => {
    const objects = mutated((o) => {
      container(o, 'letters').image = 'register/letters';
    });
    expect(workloadProblems(objects, { requireImageTags: true })).toEqual([
      'Deployment/letters: container letters: image register/letters has no tag or digest',
    ]);
  });

  test('a Deployment without its PodDisruptionBudget, Service or autoscaler fails the companion check', () => {
    const objects = mutated((o) => {
      o.splice(o.indexOf(find(o, 'PodDisruptionBudget', 'audit')), 1);
      find(o, 'Service', 'letters').spec.selector = { 'app.kubernetes.io/name': 'leters' };
      find(o, 'HorizontalPodAutoscaler', 'reference').spec.scaleTargetRef.name = 'referense';
    });
    expect(companionProblems(objects).sort()).toEqual([
      'Deployment/audit: no PodDisruptionBudget selects its pods',
      'Deployment/letters: no Service selects its pods on port http',
      'Deployment/reference: no HorizontalPodAutoscaler',
      'HorizontalPodAutoscaler/reference: scales no Deployment of these manifests',
      "Service/letters: selects no Deployment's pods",
    ]);
  });

  test('a Secret value copied into a ConfigMap, a secret-named key and a missing Secret fail the config check', () => {
    const objects = mutated((o) => {
      const secret = find(o, 'Secret', 'documents-secrets');
      const config = find(o, 'ConfigMap', 'register-config');
      config.data.S3_URL =
        `https://${Buffer.from(secret.data.S3_SECRET_KEY, 'base64').toString('utf8')}` + `@s3.example.org`;
      config.data.ZGW_SECRET = 'x';
      o.splice(o.indexOf(find(o, 'Secret', 'audit-secrets')), 1);
    });
    const problems = configProblems(objects, { secretsProvided: true });
    expect(problems).toEqual([
      expect.stringMatching(
        /^ConfigMap\/register-config-\w+: S3_URL contains the value of Secret\/documents-secrets-\w+ S3_SECRET_KEY$/,
      ),
      expect.stringMatching(/^ConfigMap\/register-config-\w+: key ZGW_SECRET names a secret$/),
      expect.stringMatching(/^Deployment\/audit: container audit: Secret audit-secrets-\w+ does not exist$/),
    ]);
    expect(problems.join('\n')).not.toContain('PLACEHOLDER');
  });

  test(
    'a mirror setting left out, one off its default, a secret in a ConfigMap and one in no Secret, ' +
      'and a service without the trace endpoint fail the variable check',
    () => {
      const objects = mutated((o) => {
        const config = find(o, 'ConfigMap', 'applications-config');
        delete config.data.ZGW_RECONCILE_WINDOW;
        config.data.ZGW_MIRROR_CONCURRENCY = '4';
        config.data.ZGW_SECRET = 'x';
        delete find(o, 'Secret', 'applications-secrets').data.ZGW_SECRET;
        delete find(o, 'Secret', 'applications-secrets').data.NOTIFICATIES_AUTH;
        delete find(o, 'ConfigMap', 'register-config').data.OTEL_EXPORTER_OTLP_ENDPOINT;
      });
      expect(
        variableProblems(
          objects,
          { applications: [...MIRROR, telemetry], letters: [telemetry] },
          { checkDefaults: true },
        ).sort(),
      ).toEqual([
        'Deployment/applications: container applications: NOTIFICATIES_AUTH is not passed (no Secret has it)',
        'Deployment/applications: container applications: OTEL_EXPORTER_OTLP_ENDPOINT is not passed',
        'Deployment/applications: container applications: ZGW_MIRROR_CONCURRENCY is "4", not the default "16"',
        'Deployment/applications: container applications: ZGW_RECONCILE_WINDOW is not passed',
        expect.stringMatching(
          new RegExp(
            '^Deployment/applications: container applications: ZGW_SECRET comes from ConfigMap ' +
              'applications-config-\\w+; it belongs in a Secret$',
          ),
        ),
        'Deployment/letters: container letters: OTEL_EXPORTER_OTLP_ENDPOINT is not passed',
      ]);
    },
  );

  test('a missing kubectl is an error that says what to install, not a skip', () => {
    expect(() => renderKustomization(path.join(k8sDir, 'base'), '/nonexistent/kubectl')).toThrow(
      /'\/nonexistent\/kubectl' was not found: .*Install kubectl/,
    );
  });
});
