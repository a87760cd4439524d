import { SERVICE_ALLOWED_COST, USAGE_PROFILES, type ServiceKind } from "../../domain/yearly-cost";

export interface YearlyCostMethodRow {
  /** The service's key (the page words it: yearlyCost.service.<key>). */
  key: ServiceKind;
  service: string;
  allowedCost: number;
  low: number;
  medium: number;
  high: number;
}

const SERVICE_WORDS: Record<ServiceKind, string> = {
  primaryCare: "Doctor visit for an illness or injury",
  specialist: "Specialist visit",
  urgentCare: "Urgent care visit",
  imaging: "X-ray or scan",
  genericDrug: "Generic drug, 30-day fill",
  preferredBrandDrug: "Brand-name drug, 30-day fill",
  emergencyRoom: "Emergency room visit",
  inpatientStay: "Hospital stay",
};

/** The assumed year of care behind "estimated yearly cost" (docs/yearly-cost.md), for the page to show. */
export function yearlyCostMethod(): YearlyCostMethodRow[] {
  return (Object.keys(SERVICE_WORDS) as ServiceKind[]).map((service) => {
    const count = (level: keyof typeof USAGE_PROFILES) =>
      USAGE_PROFILES[level].find((l) => l.service === service)?.count ?? 0;
    return {
      key: service,
      service: SERVICE_WORDS[service],
      allowedCost: SERVICE_ALLOWED_COST[service],
      low: count("low"),
      medium: count("medium"),
      high: count("high"),
    };
  });
}
