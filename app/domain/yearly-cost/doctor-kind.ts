/**
 * Whether a doctor's visits are billed as primary care: NAMCS's primary care group (general and
 * family practice, internal medicine, pediatrics). Kept apart from the cost model's assumptions so
 * the pickers, which mark a chosen doctor as primary care from the search's answer, carry no more
 * of the model than this (decision 490).
 */
// "Pediatrics" as upstream and the issuers' files name it (decision 490: the singular alone missed
// it), or "Pediatric Medicine"; a pediatric subspecialty ("Pediatric Cardiology") is a specialist.
const PRIMARY_CARE =
  /\b(family|general practice|general medicine|internal medicine|pediatrics|pediatric medicine|primary care)\b/i;

/** Whether any of a doctor's specialties is primary care; none known is not. */
export function isPrimaryCare(specialties: readonly string[] | null | undefined): boolean {
  return (specialties ?? []).some((s) => PRIMARY_CARE.test(s));
}
