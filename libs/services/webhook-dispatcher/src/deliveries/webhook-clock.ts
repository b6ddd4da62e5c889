/**
 * The dispatcher's time: due times, leases and the signed timestamps all come from here, never from
 * the database's `now()`, so one clock decides when a delivery is due (tests move it forward).
 */
export abstract class WebhookClock {
  abstract now(): Date;
}

export class SystemWebhookClock extends WebhookClock {
  now(): Date {
    return new Date();
  }
}
