// The alerting rules (issue 22): promtool checks them and runs their unit tests, in which every alert fires in one
// case and stays quiet in another; the PrometheusRule carries the same groups; every runbook link has its section.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');
const rulesDir = path.join(root, 'deploy/prometheus');
const PROMTOOL = process.env['PROMTOOL'] ?? 'promtool';

interface Rule {
  alert: string;
  expr: string;
  annotations: { runbook: string };
}
interface Groups {
  groups: Array<{ name: string; rules: Rule[] }>;
}
interface RuleTest {
  alert_rule_test: Array<{ alertname: string; exp_alerts: unknown[] }>;
}

const yamlOf = <T>(file: string): T => parse(readFileSync(file, 'utf8')) as T;
const rules = yamlOf<Groups>(path.join(rulesDir, 'register-alerts.rules.yml'));
const alerts = rules.groups.flatMap((g) => g.rules);

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('deploy/prometheus alerting rules', () => {
  it('when promtool checks the rules file, then it is valid', async () => {
    const { stdout } = await run(PROMTOOL, ['check', 'rules', 'register-alerts.rules.yml'], { cwd: rulesDir });
    expect(stdout).toContain(`SUCCESS: ${alerts.length} rules found`);
  });

  it('when promtool runs the rule tests, then every one passes', async () => {
    const { stdout } = await run(PROMTOOL, ['test', 'rules', 'register-alerts.test.yml'], { cwd: rulesDir });
    expect(stdout).toContain('SUCCESS');
  });

  it('when the tests are read, then each alert has a case that fires it and one that keeps it quiet', () => {
    const tests = yamlOf<{ tests: RuleTest[] }>(path.join(rulesDir, 'register-alerts.test.yml')).tests.flatMap(
      (t) => t.alert_rule_test,
    );
    for (const { alert } of alerts) {
      const mine = tests.filter((t) => t.alertname === alert);
      expect([alert, mine.some((t) => t.exp_alerts.length > 0), mine.some((t) => t.exp_alerts.length === 0)]).toEqual([
        alert,
        true,
        true,
      ]);
    }
    expect(alerts.map((a) => a.alert)).toEqual([
      'RegisterCaseDiverged',
      'RegisterCasePastReconcileWindow',
      'RegisterCaseMirrorBehind',
      'RegisterDeadLetters',
      'RegisterBreakerOpen',
      'RegisterConsumerLagging',
      'RegisterServiceNotReady',
    ]);
  });

  it(
    'when the PrometheusRule in deploy/k8s/monitoring is read, ' + 'then it holds the same groups as the rules file',
    () => {
      const resource = yamlOf<{ kind: string; spec: Groups }>(
        path.join(root, 'deploy/k8s/monitoring/register-alerts.yaml'),
      );
      expect(resource.kind).toBe('PrometheusRule');
      expect(resource.spec.groups).toEqual(rules.groups);
    },
  );

  it("when an alert links its runbook, then the README's Operations section has that heading", () => {
    const headings = readFileSync(path.join(root, 'README.md'), 'utf8')
      .split('\n')
      .filter((line) => /^#{2,5} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, '')));
    for (const { annotations } of alerts) {
      const [file, anchor] = annotations.runbook.split('#');
      expect([file, headings.includes(anchor ?? '') ? anchor : `missing: ${anchor}`]).toEqual(['README.md', anchor]);
    }
  });
});
