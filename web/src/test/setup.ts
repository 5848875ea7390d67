import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

import { loadEveryPage } from '@/app/pages';

// The app loads a page's code when the page is first shown; tests start with every
// page's code loaded, so a page renders as soon as a test renders its route.
beforeAll(() => loadEveryPage());

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
