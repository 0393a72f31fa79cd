import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { startWebhookDeliverer, type WebhookDeliverer } from '../../webhooks/webhook-deliverer.js';

/**
 * Runs the webhook deliverer in every server process: started when the app is ready, stopped
 * before the database closes. Several processes share the outbox; each delivery is claimed by one.
 * With SCHOLIA_WEBHOOKS_DELIVER=false a process only queues events, for the other instances to send.
 */
export const webhookDeliveryPlugin = fp(
  async (app: FastifyInstance) => {
    let deliverer: WebhookDeliverer | undefined;
    app.addHook('onReady', async () => {
      if (!app.config.webhooksDeliver) return;
      deliverer = startWebhookDeliverer({
        db: app.database.db,
        allowedTargets: app.config.webhookPrivateTargets,
        log: app.log.child({ component: 'webhooks' }),
      });
    });
    app.addHook('preClose', async () => {
      await deliverer?.stop();
    });
  },
  { name: 'webhook-delivery', dependencies: ['database'] },
);
