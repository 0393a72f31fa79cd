// Imported first by the build and test scripts: on an older Node.js they would fail much later,
// inside a native addon or a bundler, without saying why. The minimum is package.json's `engines`.
import fs from 'node:fs';

const { engines } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const minimumMajor = Number(/>=\s*(\d+)/.exec(engines.node)?.[1]);
if (Number(process.versions.node.split('.')[0]) < minimumMajor) {
  console.error(`Scholia needs Node.js ${engines.node} (22 or 24 LTS); this is Node.js ${process.version}. Install a supported Node.js and run npm install again.`);
  process.exit(1);
}
