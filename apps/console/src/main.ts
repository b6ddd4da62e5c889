import 'reflect-metadata';
import { runConsole } from '@lp/platform/runtime';

void runConsole();
