// Install step: compiles the addon with node-gyp. A machine without a C toolchain still installs:
// the server then runs without releasing the allocator's free pages (index.cjs exports null).
const { spawnSync } = require('node:child_process');

const built = spawnSync('node-gyp', ['rebuild', '--release'], { stdio: 'inherit', shell: process.platform === 'win32' });
if (built.status !== 0) {
  console.warn('@scholia/memory-release: not built (no C toolchain?); the server will run without returning freed memory to the system.');
}
