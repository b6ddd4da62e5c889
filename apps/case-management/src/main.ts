import 'reflect-metadata';
import { runService } from '@lp/platform/runtime';
import { caseManagementService } from '@lp/service/case-management';

void runService(caseManagementService);
