/**
 * Round 4 (docs/decisions/434): a file's full local path as older browsers send it as an upload's
 * file name, and as people paste it: a document or image straight in a user's own folder or in
 * its Documents, Desktop, Downloads or Pictures (`/home/ana/card.png`,
 * `/Users/bob/Desktop/letter.pdf`, `C:\Users\Ana\Documents\card.pdf`). The engine reads only the
 * file name of such a value, so the folder part no longer reads as a path into the server
 * (svc-lfi-005) and `\Documents\receipt.pdf` no longer as a `\r` escape. Anything else (system
 * folders, a hidden dot folder or file, `..`, a deeper folder, another extension, a user name
 * with anything but letters, digits, spaces, dots, hyphens and underscores) is read whole as
 * before. One anchored pattern with no nested quantifier: linear.
 */
const USER_DOCUMENT =
  // eslint-disable-next-line no-control-regex -- a file name holds no control character
  /^\s*(?:\/(?:home|Users)\/|[a-z]:[\\/]Users[\\/])[\p{L}\p{N}_-][\p{L}\p{N} ._-]{0,63}[\\/](?:(?:Documents|Desktop|Downloads|Pictures)[\\/])?([^\\/\0-\x1f.][^\\/\0-\x1f]{0,200}\.(?:pdf|png|jpe?g|gif|heic|docx?|txt))\s*$/iu;

/**
 * Decision 487: a document or image one or two folders down any drive (`D:\docs\w2.pdf`,
 * `E:\taxes\2025\1095a.pdf`), and the `C:\fakepath\` that browsers put before a chosen file's
 * name. Not a system folder (Windows, Program Files, ProgramData, inetpub, a web stack's, a
 * recovery or boot folder, `$…`), not a dot folder, no `..`, and a document's or an image's
 * extension only (not `.txt`, which a server's own files have): what a visitor scanned or saved.
 */
const DRIVE_DOCUMENT =
  // eslint-disable-next-line no-control-regex -- a file name holds no control character
  /^\s*[a-z]:[\\/](?!(?:windows|winnt|program ?files|programdata|inetpub|xampp|wamp|apache|php|mysql|system|boot|recovery|perflogs|users|documents and settings)\b)(?:[\p{L}\p{N}_-][\p{L}\p{N} _-]{0,39}[\\/]){1,2}([^\\/\0-\x1f.][^\\/\0-\x1f]{0,200}\.(?:pdf|png|jpe?g|gif|heic|docx?))\s*$/iu;

/** The file name of a path into a user's own document folders, or undefined for any other value. */
export function userDocumentName(value: string): string | undefined {
  if (value.length > 400 || (value[0] !== "/" && value[1] !== ":" && !/^\s/.test(value))) return undefined;
  return USER_DOCUMENT.exec(value)?.[1] ?? DRIVE_DOCUMENT.exec(value)?.[1];
}
