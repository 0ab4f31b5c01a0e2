import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { eventually } from '@register/testkit';

const SCRIPT = path.resolve(__dirname, '..', '..', '..', '..', 'tools', 'demo-idp', 'dist', 'src', 'main.js');

export interface DemoIdpProcess {
  issuer: string;
  close(): Promise<void>;
}

/**
 * The demo IdP (tools/demo-idp) as its own process from its build, as `npm start` runs it beside the gateway
 * (it is ES-module code that Node 24 loads, not something jest should compile).
 */
export async function startDemoIdpProcess(port: number, gatewayUrl: string): Promise<DemoIdpProcess> {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [SCRIPT], {
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      TMPDIR: process.env['TMPDIR'],
      DEMO_IDP_PORT: String(port),
      GATEWAY_URL: gatewayUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const issuer = `http://localhost:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`the demo IdP exited: ${output}`);
        const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(1000) });
        return res.ok ? true : undefined;
      },
      30_000,
      200,
    );
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${String(err)}\n${output}`, { cause: err });
  }
  return {
    issuer,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
