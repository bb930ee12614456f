/**
 * An installation the app can no longer act for: uninstalled (GitHub answers 404 when a token is minted
 * for it, 401 "Bad credentials" to its revoked tokens) or suspended (403 "This installation has been
 * suspended"). Its work stops: jobs of it end without a retry, and the queue logs it once.
 */
import { GitHubError } from "./port.js";

/** Why an installation's work stops. */
export type InstallationGoneReason = "uninstalled" | "suspended";

/** Thrown by the installation's GitHub clients; a {@link GitHubError} GitHub refused (not retried). */
export class InstallationGoneError extends GitHubError {
  readonly installationId: number;
  readonly reason: InstallationGoneReason;
  constructor(options: {
    installationId: number;
    reason: InstallationGoneReason;
    status: number;
    message: string;
  }) {
    super({
      kind: "rejected",
      operation: `installation ${options.installationId}`,
      status: options.status,
      message: `${options.reason === "suspended" ? "suspended" : "uninstalled"} (${options.message})`,
    });
    this.name = "InstallationGoneError";
    this.installationId = options.installationId;
    this.reason = options.reason;
  }
}
