/**
 * The operations endpoints, added to Probot's HTTP server: `GET /healthz` (liveness and readiness in
 * one: 200 `{"status":"ok"}`, 503 `{"status":"stopping"}` once SIGTERM arrived, so a load balancer
 * drains the process) and `GET /metrics` (Prometheus text format). Neither reveals repository data;
 * both are logged at debug (probes and scrapes would fill an info log).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { logRequestAtDebug } from "./job-log.js";
import type { Metrics } from "./metrics.js";

/** Options of {@link operationsHandler}. */
export interface OperationsEndpoints {
  metrics: Metrics;
  /** True once the process is shutting down. */
  stopping: () => boolean;
}

/** A Probot server handler (`addHandler`): answers the two paths, returns false for anything else. */
export function operationsHandler(options: OperationsEndpoints) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    if (path === "/healthz" || path === "/metrics") logRequestAtDebug(res);
    if (path === "/healthz") {
      const stopping = options.stopping();
      res.writeHead(stopping ? 503 : 200, {
        "content-type": "application/json",
        "cache-control": "no-store",
      });
      res.end(req.method === "HEAD" ? undefined : JSON.stringify({ status: stopping ? "stopping" : "ok" }));
      return true;
    }
    if (path === "/metrics") {
      const { contentType, body } = await options.metrics.text();
      res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : body);
      return true;
    }
    return false;
  };
}
