import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@lp/platform/config';
import { JobHandler, JobRunContext } from '@lp/platform/jobs';
import { describeRetentionRun, purgeInBatches, retentionCutoff } from '@lp/platform/persistence';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { WebhookDispatcherConfig, webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { WebhookDispatcherJobs } from './delivery-retention.jobs';

/**
 * Keeps the delivery store bounded (WEBHOOK_DELIVERY_RETENTION_DAYS): finished deliveries past the
 * cutoff go with their attempts and dead letters (ON DELETE CASCADE); a delivery still pending (a
 * replay, a long Retry-After) keeps its row but loses log entries and dead letters past the cutoff.
 */
@Injectable()
export class DeliveryRetention {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(webhookDispatcherConfig) private readonly config: WebhookDispatcherConfig,
    @InjectConfig(platformConfig) private readonly platform: PlatformConfig,
  ) {}

  @JobHandler(WebhookDispatcherJobs.deliveryRetention.jobName)
  async run({ now }: JobRunContext): Promise<string> {
    const cutoff = retentionCutoff(now, this.config.WEBHOOK_DELIVERY_RETENTION_DAYS);
    const batchSize = this.platform.RETENTION_BATCH_SIZE;
    const deliveries = await purgeInBatches(this.dataSource, {
      table: '"webhooks"."delivery"',
      timeColumn: '"completed_at"',
      keyColumns: ['"id"'],
      cutoff,
      batchSize,
    });
    const attempts = await purgeInBatches(this.dataSource, {
      table: '"webhooks"."delivery_attempt"',
      timeColumn: '"delivered_at"',
      keyColumns: ['"id"'],
      cutoff,
      batchSize,
    });
    const letters = await purgeInBatches(this.dataSource, {
      table: '"webhooks"."dead_letter"',
      timeColumn: '"created_at"',
      keyColumns: ['"id"'],
      cutoff,
      batchSize,
    });
    return describeRetentionRun({
      rows: deliveries.rows + attempts.rows + letters.rows,
      batches: deliveries.batches + attempts.batches + letters.batches,
      ms: deliveries.ms + attempts.ms + letters.ms,
      detail: `${deliveries.rows} finished deliveries (their attempts and dead letters with them), ${attempts.rows} attempts and ${letters.rows} dead letters of running ones`,
    });
  }
}
