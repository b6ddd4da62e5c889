import 'reflect-metadata';
import { runService } from '@lp/platform/runtime';
import { operationsService } from '@lp/service/operations';

void runService(operationsService);
