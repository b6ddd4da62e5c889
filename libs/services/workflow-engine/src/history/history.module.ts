import { Module } from '@nestjs/common';
import { HistoryController } from './history.controller';
import { HistoryInstanceFactsLoader } from './history-facts.loader';
import { HistoryRetention } from './history-retention';
import { HistoryRepository } from './history.repository';
import { HistoryService } from './history.service';

/** Instance history: the event log's projections, the archive and its retention (docs/history.md). */
@Module({
  controllers: [HistoryController],
  providers: [HistoryService, HistoryRepository, HistoryInstanceFactsLoader, HistoryRetention],
})
export class HistoryModule {}
