import { ProblemCodes } from '@lp/contracts';
import { problem } from '@lp/platform/http';
import { createLitigationCaseTool } from './case.tools';
import { errorResult, invalidArgumentsProblem, outcomeOfProblem, problemForClient, problemOfResult } from './tool-outcome';

describe('outcomeOfProblem', () => {
  it.each([
    [403, ProblemCodes.authorizationDenied, 'denied'],
    [404, ProblemCodes.notFound, 'not_found'],
    [400, ProblemCodes.validationFailed, 'invalid'],
    [429, ProblemCodes.rateLimited, 'rate_limited'],
    [503, ProblemCodes.authorizationUnavailable, 'failed'],
    [504, ProblemCodes.timeout, 'failed'],
    [500, ProblemCodes.internal, 'failed'],
    [409, 'Conflict', 'failed'],
  ])('%i %s -> %s', (status, code, outcome) => {
    expect(outcomeOfProblem({ status, code })).toBe(outcome);
  });
});

describe('create_litigation_case arguments', () => {
  const valid = { CaseTitle: 'Acme v. Doe', CaseType: 'civil', ClaimAmount: 1500.5, DefendantName: 'John Doe' };

  it('accepts the spec arguments and maps nothing away', () => {
    expect(createLitigationCaseTool.input.parse(valid)).toEqual(valid);
  });

  it('reports ClaimAmount 0 under the argument name, with the shared rule renamed to it', () => {
    const parsed = createLitigationCaseTool.input.safeParse({ ...valid, ClaimAmount: 0 });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const p = invalidArgumentsProblem(parsed.error, createLitigationCaseTool.argumentFields);
    expect(p).toMatchObject({ status: 400, code: 'Validation.Failed', errors: { ClaimAmount: ['ClaimAmount must be strictly positive'] } });
  });

  it('lists every problem at once, an unknown argument under its own name', () => {
    const parsed = createLitigationCaseTool.input.safeParse({ CaseTitle: ' ', CaseType: 'divorce', ClaimAmount: -1, Extra: 1 });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const { errors } = invalidArgumentsProblem(parsed.error, createLitigationCaseTool.argumentFields);
    expect(Object.keys(errors ?? {}).sort()).toEqual(['CaseTitle', 'CaseType', 'ClaimAmount', 'DefendantName', 'Extra']);
    expect(errors?.['CaseType']?.[0]).toMatch(/^CaseType must be one of civil/);
    expect(errors?.['Extra']).toEqual(['is not an argument of this tool']);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('reports an argument named %s like any unknown argument', (key) => {
    const parsed = createLitigationCaseTool.input.safeParse(JSON.parse(`{"CaseTitle":"t","CaseType":"civil","ClaimAmount":1,"DefendantName":"d","${key}":{}}`));
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const { errors } = invalidArgumentsProblem(parsed.error, createLitigationCaseTool.argumentFields);
    expect(Object.keys(errors ?? {})).toEqual([key]);
    expect(Object.getOwnPropertyDescriptor(errors, key)?.value).toEqual(['is not an argument of this tool']);
  });

  it('keys a downstream error on a field named like an Object.prototype member', () => {
    const downstream = problem(400, 'Validation.Failed', 'no', {
      errors: JSON.parse('{"constructor":["property constructor should not exist"],"__proto__":["x"]}'),
    });
    const { errors } = problemForClient(downstream, createLitigationCaseTool.argumentFields);
    expect(Object.keys(errors ?? {})).toEqual(['constructor', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(errors, '__proto__')?.value).toEqual(['x']);
  });

  it("keys the service's own per-field errors by argument", () => {
    const downstream = problem(400, 'Validation.Failed', 'no', {
      errors: { claimAmount: ['claimAmount must be at most 9999999999999.99'], officeId: ['unknown office'] },
    });
    expect(problemForClient(downstream, createLitigationCaseTool.argumentFields).errors).toEqual({
      ClaimAmount: ['ClaimAmount must be at most 9999999999999.99'],
      officeId: ['unknown office'],
    });
  });
});

describe('errorResult', () => {
  it('is a tool result with isError, its message in text, the problem in _meta and no structuredContent', () => {
    const result = errorResult(problem(404, 'NotFound', 'Case was not found.', { correlationId: 'c1' }));
    expect(result.isError).toBe(true);
    // SDK clients validate structuredContent against the output schema whenever it is present.
    expect(result).not.toHaveProperty('structuredContent');
    expect(result.content).toEqual([{ type: 'text', text: 'NotFound (404 Not Found): Case was not found.\nCorrelation id: c1' }]);
    expect(problemOfResult(result)).toEqual({
      type: 'urn:problem:NotFound',
      title: 'Not Found',
      status: 404,
      code: 'NotFound',
      detail: 'Case was not found.',
      correlationId: 'c1',
    });
  });

  it('lists each argument with its messages, and carries nothing but the problem members', () => {
    const downstream = {
      ...problem(400, 'Validation.Failed', 'The arguments are not valid: ClaimAmount.', { errors: { ClaimAmount: ['a', 'b'] } }),
      stack: 'x',
    };
    const result = errorResult(downstream);
    expect((result.content[0] as { text: string }).text).toBe(
      'Validation.Failed (400 Bad Request): The arguments are not valid: ClaimAmount.\n- ClaimAmount: a; b',
    );
    expect(Object.keys(problemOfResult(result) ?? {})).toEqual(['type', 'title', 'status', 'code', 'detail', 'errors']);
  });
});
