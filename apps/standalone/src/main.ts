import 'reflect-metadata';
import { runStandalone } from '@lp/platform/runtime';
import { standaloneServices } from './services';

void runStandalone(standaloneServices);
