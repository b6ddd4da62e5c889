import { PipeTransform } from '@nestjs/common';
import { SchemaValidationPipe } from '@lp/platform/http';
import { ImportTooLargeError } from '../management-errors';
import { LegacyImport, legacyImportSchema, MAX_IMPORT_BYTES, MAX_IMPORT_TASKS } from './legacy-import.dto';

/**
 * The import body's own limits, before its shape is checked: the compact JSON size (below the
 * platform's 1 MB body limit) and the task count, each a 413 `Workflow.Import.TooLarge` naming the
 * figure; then the schema (400 `Validation.Failed` per field).
 */
export class LegacyImportPipe implements PipeTransform<unknown, LegacyImport> {
  private readonly schema = new SchemaValidationPipe(legacyImportSchema);

  transform(value: unknown): LegacyImport {
    const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
    if (bytes > MAX_IMPORT_BYTES) throw new ImportTooLargeError(`The import is ${bytes} bytes of JSON; at most ${MAX_IMPORT_BYTES} are accepted.`);
    const tasks = (value as { tasks?: unknown } | null)?.tasks;
    if (Array.isArray(tasks) && tasks.length > MAX_IMPORT_TASKS)
      throw new ImportTooLargeError(`The import has ${tasks.length} tasks; at most ${MAX_IMPORT_TASKS} are accepted per instance.`);
    return this.schema.transform(value);
  }
}
