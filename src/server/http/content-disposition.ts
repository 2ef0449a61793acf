/**
 * The one Content-Disposition of a download (RFC 6266), for the bytes of a file and for a
 * run's results alike.
 */

/**
 * `attachment; filename="…"` with a name every client reads: printable ASCII, without the
 * quote and backslash that would end or escape the quoted string. When that is not the
 * name itself (`Rechnung Müller.pdf`, `請求書-2e3f4a5b.csv`), `filename*` follows with the
 * exact name in RFC 8187's UTF-8 encoding, which current browsers prefer. `asciiName` is a
 * better fallback than the name with its other characters replaced, where there is one.
 */
export function contentDisposition(
  name: string,
  options: { asciiName?: string; disposition?: 'attachment' | 'inline' } = {},
): string {
  const { disposition = 'attachment' } = options;
  const fallback = (options.asciiName ?? name).replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (fallback === name) return `${disposition}; filename="${fallback}"`;
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${rfc8187(name)}`;
}

/**
 * RFC 8187's value-chars: percent-encoded UTF-8 but for attr-char. encodeURIComponent
 * leaves `'()*` as they are, which attr-char does not allow, and throws on half a
 * surrogate pair (a name cut at a code unit), which is written as U+FFFD instead.
 */
function rfc8187(name: string): string {
  return encodeURIComponent(name.replace(/\p{Cs}/gu, '\ufffd')).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
