import { runConsole } from '@lp/platform/runtime/console';

void runConsole();
