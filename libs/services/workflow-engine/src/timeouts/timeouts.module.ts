import { Module } from '@nestjs/common';
import { RuntimeModule } from '../runtime/runtime.module';
import { NodeTimeoutRunner } from './node-timeout-runner';

/** Node timeouts and reminders: the `workflow-engine.node-timeouts` job (docs/timeouts.md). */
@Module({
  imports: [RuntimeModule],
  providers: [NodeTimeoutRunner],
})
export class TimeoutsModule {}
