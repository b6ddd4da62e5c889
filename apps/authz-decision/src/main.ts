import 'reflect-metadata';
import { runService } from '@lp/platform/runtime';
import { authzDecisionService } from '@lp/service/authz-decision';

void runService(authzDecisionService);
