import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/app';
import './index.css';

// A page left open across a new release may ask for page code the server no longer has:
// loading the app again picks up the new release. At most once a minute, so a server that
// is down is not reloaded in a loop.
window.addEventListener('vite:preloadError', (event) => {
  const key = 'podlens:reloaded-for-release';
  try {
    const last = Number(window.sessionStorage.getItem(key) ?? 0);
    if (Date.now() - last < 60_000) return;
    window.sessionStorage.setItem(key, String(Date.now()));
  } catch {
    return; // without storage there is no telling a loop from a release
  }
  event.preventDefault();
  window.location.reload();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
