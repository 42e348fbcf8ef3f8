// `npm run` puts node_modules/.bin first on PATH, so `node` is the project's own Node 22 (the
// `node` devDependency), whatever Node runs npm. msw 3 declares Node >= 22.12: refuse to run the
// tests on any other Node, so that a pass always means "msw 3 on Node 22".
const { realpathSync } = require('node:fs');
const path = require('node:path');

const [major, minor] = process.versions.node.split('.').map(Number);
const own = realpathSync(path.join(__dirname, 'node_modules'));
if (major !== 22 || minor < 12 || !realpathSync(process.execPath).startsWith(own + path.sep)) {
  console.error(`msw3: expected the project's Node 22.12+ (node_modules/.bin/node), got ${process.version} at ${process.execPath}`);
  process.exit(1);
}
console.log(`msw3: Node ${process.version} from node_modules/.bin`);
