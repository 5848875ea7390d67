/** Hands a file to the browser's download under `name`. */
export function saveFile(blob: Blob, name: string) {
  if (typeof URL.createObjectURL !== 'function') return;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // Revoked once the download has started: at once, some browsers cancel it.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
