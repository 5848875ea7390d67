/** A padlock drawn inline: an emoji padlock needs an emoji font, which many Linux
 * desktops and headless browsers lack, and shows as an empty box there. Decorative:
 * the text beside it says what is locked. */
export function LockIcon() {
  return (
    <svg className="lock-icon" aria-hidden="true" focusable="false" width="0.85em" height="0.85em" viewBox="0 0 16 16">
      <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor" />
    </svg>
  );
}
