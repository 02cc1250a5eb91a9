// `npm run grafana`: writes the Grafana provisioning files under deploy/grafana/ (scripts/grafana/dashboards.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageRoot } from '../../ingest/store/package-root.js';
import { provisioningFiles } from './dashboards.js';

const root = join(packageRoot(), 'deploy', 'grafana');
for (const [path, text] of Object.entries(provisioningFiles())) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  process.stdout.write(`wrote deploy/grafana/${path}\n`);
}
