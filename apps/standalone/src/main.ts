// First: the tracing SDK must be in place before the modules it instruments load.
import '@lp/platform/observability/tracing';
import 'reflect-metadata';
import { runStandalone } from '@lp/platform/runtime';
import { fleetServices } from '@lp/fleet';

void runStandalone(fleetServices);
