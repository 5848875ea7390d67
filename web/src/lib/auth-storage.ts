// The signed-in state: an API key (created with `podlens keys create`) kept in
// localStorage and sent as the Authorization header, or a browser session opened by a
// magic link (an HttpOnly cookie the page never sees; the signed-in email is kept here
// so the app knows to show signed-in screens).

const API_KEY_STORAGE = 'podlens.apiKey';
const SESSION_STORAGE = 'podlens.sessionEmail';
const listeners = new Set<() => void>();

export function getApiKey(): string | null {
  try {
    return window.localStorage.getItem(API_KEY_STORAGE);
  } catch {
    return null;
  }
}

export function setApiKey(apiKey: string | null): void {
  try {
    if (apiKey) window.localStorage.setItem(API_KEY_STORAGE, apiKey);
    else window.localStorage.removeItem(API_KEY_STORAGE);
  } catch {
    // Storage can be unavailable (private mode); the key then lives for this page only.
  }
  listeners.forEach((listener) => listener());
}

export function subscribeApiKey(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The email of the browser session, when signed in by magic link. */
export function getSessionEmail(): string | null {
  try {
    return window.localStorage.getItem(SESSION_STORAGE);
  } catch {
    return null;
  }
}

export function setSessionEmail(email: string | null): void {
  try {
    if (email) window.localStorage.setItem(SESSION_STORAGE, email);
    else window.localStorage.removeItem(SESSION_STORAGE);
  } catch {
    // Storage unavailable: the session cookie still works for this page.
  }
  listeners.forEach((listener) => listener());
}
