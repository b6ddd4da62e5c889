import 'reflect-metadata';
import { runService } from '@lp/platform/runtime';
import { workflowEngineService } from '@lp/service/workflow-engine';

void runService(workflowEngineService);
