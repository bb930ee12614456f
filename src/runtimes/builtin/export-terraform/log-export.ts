/**
 * log-export.tf as export-terraform's template lays it out (see `hcl.ts`): for each log sink the
 * catalog created, its `log-export` module, then a destination module per referenced destination
 * (BigQuery dataset, Pub/Sub topic, storage bucket, logging bucket).
 */
import type { TfGraph, TfResource } from "./model.js";
import { msToDays, nameOf, organizationId, type Site } from "./template-calls.js";

const ORG_SITE: Site = {
  file: "log-export.tf",
  at: "8:36",
  context: "$logsink.GetOrganization.GetTerraformId",
};

function parentSite(at: string): Site {
  return { file: "log-export.tf", at, context: ".Parent.GetResourceName" };
}

/** log-export.tf's content (empty without log sinks). */
export function logExports(graph: TfGraph, log: string[]): string {
  let out = "";
  for (const sink of graph.ofKind("LoggingLogSink")) {
    const refs = sink.references;
    const sinkName = sink.resourceName();
    if (sink.created) out += sinkModule(sink, log);
    const dataset = refs.get("BigQueryDataset");
    if (dataset) out += datasetDestination(dataset, sinkName);
    const topic = refs.get("PubSubTopic");
    if (topic) out += topicDestination(topic, sinkName);
    const bucket = refs.get("StorageBucket");
    if (bucket) out += bucketDestination(bucket, sinkName);
    const logBucket = refs.get("LoggingLogBucket");
    if (logBucket) out += logBucketDestination(logBucket, sinkName);
  }
  return out;
}

function sinkModule(sink: TfResource, log: string[]): string {
  const refs = sink.references;
  const destination =
    refs.get("BigQueryDataset") ??
    refs.get("PubSubTopic") ??
    refs.get("StorageBucket") ??
    refs.get("LoggingLogBucket");
  let out = `\nmodule "logsink-${sink.resourceName()}" {\n`;
  out += '  source  = "terraform-google-modules/log-export/google"\n';
  out += '  version = "~> 7.3.0"\n\n';
  out += `  destination_uri      = module.${destination ? destination.resourceName() : ""}-destination.destination_uri\n`;
  out += `  log_sink_name        = "${sink.displayName()}"\n`;
  out += `  parent_resource_id   = ${organizationId(sink, ORG_SITE, log)}\n`;
  out += '  parent_resource_type = "organization"\n';
  out += "  include_children     = true\n}\n";
  return out;
}

function datasetDestination(dataset: TfResource, sinkName: string): string {
  const name = dataset.resourceName();
  let out = `\nmodule "${name}-destination" {\n`;
  out += '  source  = "terraform-google-modules/log-export/google//modules/bigquery"\n';
  out += '  version = "~> 7.3.0"\n\n';
  out += `  project_id               = module.${nameOf(dataset.parent, parentSite("17:46"))}.project_id\n`;
  out += `  dataset_name             = "${name}"\n`;
  out += `  log_sink_writer_identity = module.logsink-${sinkName}.writer_identity`;
  const expiration = dataset.int("spec", "defaultTableExpirationMs");
  if (expiration !== 0) out += `\n  expiration_days          = "${msToDays(expiration)}"`;
  const location = dataset.str("spec", "location");
  if (location !== "") out += `\n  location                 = "${location}"`;
  out += "\n}\n";
  return out;
}

function topicDestination(topic: TfResource, sinkName: string): string {
  const name = topic.resourceName();
  let out = `\nmodule "${name}-destination" {\n`;
  out += '  source  = "terraform-google-modules/log-export/google//modules/pubsub"\n';
  out += '  version = "~> 7.3.0"\n\n';
  out += `  project_id               = module.${nameOf(topic.parent, parentSite("28:46"))}.project_id\n`;
  out += `  topic_name               = "${name}"\n`;
  out += `  log_sink_writer_identity = module.logsink-${sinkName}.writer_identity\n}\n`;
  return out;
}

function bucketDestination(bucket: TfResource, sinkName: string): string {
  const name = bucket.resourceName();
  let out = `\nmodule "${name}-destination" {\n`;
  out += '  source  = "terraform-google-modules/log-export/google//modules/storage"\n';
  out += '  version = "~> 7.3.0"\n\n';
  out += `  project_id                  = module.${nameOf(bucket.parent, parentSite("37:49"))}.project_id\n`;
  out += `  storage_bucket_name         = "${name}"\n`;
  out += `  log_sink_writer_identity    = module.logsink-${sinkName}.writer_identity\n`;
  out += `  uniform_bucket_level_access = ${bucket.bool("spec", "uniformBucketLevelAccess")}`;
  const location = bucket.str("spec", "location");
  if (location !== "") out += `\n  location                    = "${location}"`;
  const storageClass = bucket.str("spec", "storageClass");
  if (storageClass !== "") out += `\n  storage_class               = "${storageClass}"`;
  const retention = bucket.int("spec", "retentionPolicy", "retentionPeriod");
  if (retention !== 0) {
    out += "\n  retention_policy = {\n";
    out += `    retention_period_days = ${msToDays(retention * 1000)},\n`;
    out += `    is_locked             = ${bucket.bool("spec", "retentionPolicy", "isLocked")}\n  }`;
  }
  out += "\n}\n";
  return out;
}

function logBucketDestination(logBucket: TfResource, sinkName: string): string {
  const name = logBucket.resourceName();
  let out = `\nmodule "${name}-destination" {\n`;
  out += '  source  = "terraform-google-modules/log-export/google//modules/logbucket"\n';
  out += '  version = "~> 7.4.1"\n\n';
  out += `  project_id               = module.${nameOf(logBucket.parent, parentSite("53:46"))}.project_id\n`;
  out += `  name                     = "${name}"`;
  const location = logBucket.str("spec", "location");
  if (location !== "") out += `\n  location                 = "${location}"`;
  const days = logBucket.int("spec", "retentionDays");
  if (days !== 0) out += `\n  retention_days           = ${days}`;
  out += `\n  log_sink_writer_identity = module.logsink-${sinkName}.writer_identity\n}\n`;
  return out;
}
