import { PipeTransform } from '@nestjs/common';
import { ValidationError } from '@lp/platform/http';
import { definitionKeyProblem } from './definition-rules';

/** The `{key}` path parameter (and the legacy body's key): a definition key or 400 naming the field. */
export class DefinitionKeyPipe implements PipeTransform<string, string> {
  constructor(private readonly field = 'key') {}

  transform(value: string): string {
    const problem = definitionKeyProblem(value);
    if (problem) throw new ValidationError({ [this.field]: [problem] });
    return value;
  }
}
