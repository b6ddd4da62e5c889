import { DefinitionInvalidError, RevisionConflictError } from './definition-errors';

describe('definition errors', () => {
  it('a revision conflict names the stored revision in its detail and as `currentRevision`', () => {
    const error = new RevisionConflictError('nda', 1, 3);
    expect(error).toMatchObject({ code: 'Workflow.Definition.RevisionConflict', status: 409, extensions: { currentRevision: 3 } });
    expect(error.message).toMatch(/revision 3, not 1/);
    expect(new RevisionConflictError('nda', 2, 0).message).toMatch(/does not exist/);
  });

  it('an invalid definition lists its problems as they are, and by node (or path) in `errors` for generic clients', () => {
    const problems = [
      { code: 'Workflow.Definition.DuplicateNodeKey', message: 'duplicate', nodeKey: 'legal' },
      { code: 'Workflow.Definition.DuplicateNodeKey', message: 'again', nodeKey: 'legal' },
      { code: 'Workflow.Definition.Invalid', message: 'required', path: 'nodes.0.assignees' },
      { code: 'Workflow.Definition.Invalid', message: 'no name' },
    ];
    const error = new DefinitionInvalidError(problems);
    expect(error).toMatchObject({ code: 'Workflow.Definition.Invalid', status: 422, extensions: { problems } });
    expect(error.errors).toEqual({
      'nodes.legal': ['Workflow.Definition.DuplicateNodeKey: duplicate', 'Workflow.Definition.DuplicateNodeKey: again'],
      'nodes.0.assignees': ['Workflow.Definition.Invalid: required'],
      definition: ['Workflow.Definition.Invalid: no name'],
    });
  });
});
