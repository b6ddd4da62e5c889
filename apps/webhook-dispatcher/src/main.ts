import 'reflect-metadata';
import { runService } from '@lp/platform/runtime';
import { webhookDispatcherService } from '@lp/service/webhook-dispatcher';

void runService(webhookDispatcherService);
