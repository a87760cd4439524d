import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { BrowserAnalyticsConfig } from "./analytics-config";
import type { AnalyticsController } from "./analytics.client";

/**
 * Mount once in the root layout: <Analytics config={data.analytics} />.
 * Loads the decision module (and, only when capture is allowed, posthog-js)
 * after hydration, and re-decides after every client-side navigation, so
 * dropping `no_track=1` from the URL turns capture back on without a reload.
 * Renders nothing; without JavaScript nothing is captured at all.
 */
export function Analytics({ config }: { config: BrowserAnalyticsConfig | null | undefined }) {
  const location = useLocation();
  const controller = useRef<Promise<AnalyticsController> | null>(null);
  const token = config?.token ?? null;
  const host = config?.host ?? "";
  const optOut = config?.optOutHosts.join(",") ?? "";

  useEffect(() => {
    if (!token) return;
    const pending = import("./analytics.client").then((m) =>
      m.initAnalytics({ token, host, optOutHosts: optOut ? optOut.split(",") : [] }),
    );
    controller.current = pending;
    return () => {
      controller.current = null;
      void pending.then((c) => c.dispose());
    };
  }, [token, host, optOut]);

  useEffect(() => {
    void controller.current?.then((c) => c.update(window.location.href));
  }, [location.pathname, location.search]);

  return null;
}
