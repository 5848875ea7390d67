import { useState } from 'react';

/** Podcast or episode artwork; falls back to the title's initial when missing or broken. */
export function Artwork({ src, title, size = 64 }: { src: string | null | undefined; title: string; size?: number }) {
  const [broken, setBroken] = useState(false);
  const style = { width: size, height: size };
  if (!src || broken) {
    return (
      <div className="artwork artwork-fallback" style={style} aria-hidden="true">
        {title.trim().charAt(0).toUpperCase() || '?'}
      </div>
    );
  }
  return (
    <img
      className="artwork"
      style={style}
      src={src}
      alt=""
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  );
}
