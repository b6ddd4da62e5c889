import { ArgumentMetadata, ValidationError as ClassValidatorError, ValidationPipe } from '@nestjs/common';
import { ValidationError } from './domain-error';
import { unstorableInput } from './storable-input';

/** Flattens nested class-validator errors into `{ "path.to.field": ["message", ...] }`. */
export function flattenValidationErrors(errors: ClassValidatorError[], parent = ''): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) result[path] = Object.values(error.constraints);
    if (error.children?.length) Object.assign(result, flattenValidationErrors(error.children, path));
  }
  return result;
}

/**
 * The fleet's validation pipe: DTOs are transformed, unknown fields are rejected (not silently
 * dropped, so a client's typo is visible), and failures become one `Validation.Failed` problem with
 * a message per field.
 */
export function createValidationPipe(options: EdgeValidationOptions = {}): ValidationPipe {
  return new EdgeValidationPipe(options, {
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationError(flattenValidationErrors(errors)),
  });
}

export interface EdgeValidationOptions {
  /**
   * Field paths under this root are reported without it: RPC messages are `{ caller, payload }`,
   * and a problem in the payload names its field as an HTTP body's would (`resource.resourceId`).
   */
  reportUnder?: string;
}

function withoutRoot(errors: Record<string, string[]>, root: string | undefined): Record<string, string[]> {
  if (root === undefined) return errors;
  return Object.fromEntries(Object.entries(errors).map(([path, problems]) => [path.startsWith(`${root}.`) ? path.slice(root.length + 1) : path, problems]));
}

/**
 * Nest's ValidationPipe behind the storable-input check (`unstorableInput`): NUL, lone surrogates and
 * hostile nesting are refused for every body, path parameter, query value and RPC payload before
 * class-transformer walks them. A named parameter (`@Param('id')`) reports under its name.
 */
class EdgeValidationPipe extends ValidationPipe {
  constructor(
    private readonly edge: EdgeValidationOptions,
    options: ConstructorParameters<typeof ValidationPipe>[0],
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'param' || metadata.type === 'query') {
      const errors = unstorableInput(value, metadata.data ?? '');
      if (Object.keys(errors).length > 0) throw new ValidationError(withoutRoot(errors, this.edge.reportUnder));
    }
    return super.transform(value, metadata);
  }
}
