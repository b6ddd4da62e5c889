import 'reflect-metadata';
import { runService } from '@lp/platform/runtime';
import { policyManagementService } from '@lp/service/policy-management';

void runService(policyManagementService);
