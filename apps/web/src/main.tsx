import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError } from './lib/api';
import { registerServiceWorker } from './lib/push';
import { router } from './router';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not mend itself by asking again, nor will a database outage (the banner says so and
      // polling picks the data up when it is back); a network blip or another 5xx may.
      retry: (failures, error) =>
        !(
          error instanceof ApiError &&
          ((error.status >= 400 && error.status < 500) || error.code === 'database_unavailable')
        ) && failures < 2,
      refetchOnWindowFocus: true,
    },
  },
});

// The service worker shows push pages (docs/paging-twilio-push.md#web-push), even with no tab open.
registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
