import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `pnpm --filter @firebreak/web dev` proxies the API to a running `pnpm start` (port 8080), so the UI
// can be worked on with hot reload; production builds are served by the API app itself.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    assetsDir: 'assets',
    rolldownOptions: {
      // The workspace packages are pure modules (schemas, rules) imported through their index; saying
      // so lets the bundle keep only what the UI uses (the on-call maths), not every schema and parser.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/]/.test(id) },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/ready': 'http://127.0.0.1:8080',
      '/health': 'http://127.0.0.1:8080',
    },
  },
});
