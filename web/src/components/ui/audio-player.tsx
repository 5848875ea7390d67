import { useState } from 'react';

/** An episode's enclosure. When the browser cannot load it (gone, refused, not audio),
 * the player is replaced by "Audio unavailable" instead of a silent 0:00 / 0:00. */
export function AudioPlayer({ src, title, className }: { src: string | null | undefined; title: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <p className="muted audio-unavailable" role="status">
        Audio unavailable
      </p>
    );
  }
  return <audio className={className} controls preload="none" src={src} aria-label={`Play ${title}`} onError={() => setFailed(true)} />;
}
