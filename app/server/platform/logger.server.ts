import pino from "pino";
import { env } from "./env.server";
import { processSingleton } from "./lifecycle.server";

/**
 * The one logger. Never log personal data: no email addresses, incomes, ages
 * or names. Log operation names, statuses, durations and ids.
 */
export function logger(): pino.Logger {
  return processSingleton("logger", () =>
    pino({
      level: env().LOG_LEVEL,
      base: { service: "health-plan-marketplace" },
      redact: { paths: ["email", "income", "age", "*.email", "*.income", "*.age"], censor: "[redacted]" },
    }),
  );
}
