// A preload (NODE_OPTIONS="--require …/cpu-profile.cjs", with BENCH_CPU_PROF_DIR set) that profiles the whole
// process with the inspector and writes <dir>/<title>-<pid>.cpuprofile at exit: this Node refuses --cpu-prof
// in NODE_OPTIONS, and the launcher spawns the services without extra arguments.
const { Session } = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.on('exit', () => {
    // An in-process session answers synchronously, so the profile is written before the process ends.
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      mkdirSync(dir, { recursive: true });
      const name =
        path.basename(process.argv[1] ?? 'node', '.js') +
        '-' +
        path.basename(path.dirname(path.dirname(path.dirname(process.argv[1] ?? ''))));
      writeFileSync(path.join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
