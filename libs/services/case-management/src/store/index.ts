import { LitigationCaseEntity } from './litigation-case.entity';

export * from './litigation-case.entity';

/**
 * Every entity of the `cases` schema. `cases.matter_sequence` has none on purpose: it is only ever
 * touched by the one upsert that draws a number (MatterNumbers).
 */
export const CASE_MANAGEMENT_ENTITIES = [LitigationCaseEntity];
