/**
 * The state a ZIP code belongs to, from its first three digits, for ZIPs our own
 * ZIP–county data does not hold (a new ZIP, a PO-box-only ZIP such as 30303).
 *
 * Source: USPS, Domestic Mail Manual (DMM) Exhibit L002, "3-Digit ZIP Code Prefix
 * Matrix", and USPS Publication 65, as summarised in docs/reference/zip-prefixes.md.
 * A prefix maps to one state except the few listed as exceptions (e.g. 055 is
 * Massachusetts inside Vermont's 050–059, 885 is El Paso, Texas). Prefixes USPS has
 * not assigned (000–004, 213, 269, 343 …) answer undefined: such a ZIP does not exist.
 * Military (AA/AE/AP) and territories answer their USPS code; none of them shops on a
 * state marketplace.
 */

/** [first prefix, last prefix, USPS state code], inclusive, in order. */
const RANGES: ReadonlyArray<readonly [number, number, string]> = [
  [5, 5, "NY"],
  [6, 7, "PR"],
  [8, 8, "VI"],
  [9, 9, "PR"],
  [10, 27, "MA"],
  [28, 29, "RI"],
  [30, 38, "NH"],
  [39, 49, "ME"],
  [50, 54, "VT"],
  [55, 55, "MA"],
  [56, 59, "VT"],
  [60, 69, "CT"],
  [70, 89, "NJ"],
  [90, 99, "AE"],
  [100, 149, "NY"],
  [150, 196, "PA"],
  [197, 199, "DE"],
  [200, 200, "DC"],
  [201, 201, "VA"],
  [202, 205, "DC"],
  [206, 212, "MD"],
  [214, 219, "MD"],
  [220, 246, "VA"],
  [247, 268, "WV"],
  [270, 289, "NC"],
  [290, 299, "SC"],
  [300, 319, "GA"],
  [320, 339, "FL"],
  [340, 340, "AA"],
  [341, 342, "FL"],
  [344, 344, "FL"],
  [346, 347, "FL"],
  [349, 349, "FL"],
  [350, 352, "AL"],
  [354, 369, "AL"],
  [370, 385, "TN"],
  [386, 397, "MS"],
  [398, 399, "GA"],
  [400, 418, "KY"],
  [420, 427, "KY"],
  [430, 459, "OH"],
  [460, 479, "IN"],
  [480, 499, "MI"],
  [500, 516, "IA"],
  [520, 528, "IA"],
  [530, 532, "WI"],
  [534, 535, "WI"],
  [537, 549, "WI"],
  [550, 551, "MN"],
  [553, 567, "MN"],
  [569, 569, "DC"],
  [570, 577, "SD"],
  [580, 588, "ND"],
  [590, 599, "MT"],
  [600, 620, "IL"],
  [622, 629, "IL"],
  [630, 631, "MO"],
  [633, 641, "MO"],
  [644, 658, "MO"],
  [660, 662, "KS"],
  [664, 679, "KS"],
  [680, 681, "NE"],
  [683, 693, "NE"],
  [700, 701, "LA"],
  [703, 708, "LA"],
  [710, 714, "LA"],
  [716, 729, "AR"],
  [730, 731, "OK"],
  [733, 733, "TX"],
  [734, 741, "OK"],
  [743, 749, "OK"],
  [750, 752, "TX"],
  [754, 754, "TX"],
  [756, 771, "TX"],
  [773, 799, "TX"],
  [800, 816, "CO"],
  [820, 831, "WY"],
  [832, 838, "ID"],
  [840, 847, "UT"],
  [850, 850, "AZ"],
  [851, 853, "AZ"],
  [855, 857, "AZ"],
  [859, 860, "AZ"],
  [863, 865, "AZ"],
  [870, 875, "NM"],
  [877, 884, "NM"],
  [885, 885, "TX"],
  [889, 891, "NV"],
  [893, 895, "NV"],
  [897, 898, "NV"],
  [900, 908, "CA"],
  [910, 928, "CA"],
  [930, 961, "CA"],
  [962, 966, "AP"],
  [967, 968, "HI"],
  [969, 969, "GU"],
  [970, 979, "OR"],
  [980, 986, "WA"],
  [988, 994, "WA"],
  [995, 999, "AK"],
];

/** The USPS state code for a 5-digit ZIP's prefix, or undefined when USPS has not assigned the prefix. */
export function stateForZipPrefix(zip: string): string | undefined {
  if (!/^\d{5}$/.test(zip)) return undefined;
  const prefix = Number(zip.slice(0, 3));
  for (const [first, last, state] of RANGES) {
    if (prefix < first) return undefined;
    if (prefix <= last) return state;
  }
  return undefined;
}
