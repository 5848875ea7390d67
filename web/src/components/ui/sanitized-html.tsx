/**
 * HTML that the server has already sanitized (ammonia) before sending it. Feed HTML
 * is untrusted: this component is the only place the app renders HTML, and it is
 * only ever given the server's sanitized description fields.
 */
export function ServerSanitizedHtml({ html, className }: { html: string; className?: string }) {
  return <div className={className ?? 'prose'} dangerouslySetInnerHTML={{ __html: html }} />;
}
