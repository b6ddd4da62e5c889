import 'reflect-metadata';
import { runStandalone } from '@lp/platform/runtime';
import { fleetServices } from '@lp/fleet';

void runStandalone(fleetServices);
