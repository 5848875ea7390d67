// The signed-in state: an API key (created with `podlens keys create`) kept in
// localStorage and sent as the Authorization header.

const API_KEY_STORAGE = 'podlens.apiKey';
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
