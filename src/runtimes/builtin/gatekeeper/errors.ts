/**
 * A failure of the whole `gatekeeper` function (a template that does not compile, a constraint
 * without its template, a resource without a version), worded as the catalog's function words it.
 * The function reports it as one error result without a resource reference, and no violations.
 */
export class GatekeeperError extends Error {}
