/**
 * How many bytes of upload bodies the process holds at once (docs/decisions/518).
 *
 * An upload is held in memory whole, several times over, while it is read, judged, disarmed and
 * stored: about five times its size at the peak. Nothing bounded how many were held at once, so a
 * hundred 9.5 MB uploads together took the process to 1.5 GB of RSS. A multipart body reserves its
 * declared length (or the multipart ceiling when it declares none) before a byte of it is read,
 * and gives it back when its answer is done; a body that does not fit is not read and is answered
 * 503 with Retry-After.
 */
export interface UploadBudget {
  /** Reserve `bytes`; undefined when they do not fit beside what is held now. */
  reserve(bytes: number): { release: () => void } | undefined;
  readonly stats: { heldBytes: number; held: number; refused: number; limitBytes: number };
}

export function uploadBudget(limitBytes: number): UploadBudget {
  const stats = { heldBytes: 0, held: 0, refused: 0, limitBytes };
  return {
    stats,
    reserve(bytes) {
      // One body always fits an empty budget, whatever its size: a budget below the ceiling
      // must not refuse every upload.
      if (stats.held > 0 && stats.heldBytes + bytes > limitBytes) {
        stats.refused++;
        return undefined;
      }
      stats.heldBytes += bytes;
      stats.held++;
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          stats.heldBytes -= bytes;
          stats.held--;
        },
      };
    },
  };
}
