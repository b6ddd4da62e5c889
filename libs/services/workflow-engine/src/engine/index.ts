/**
 * The workflow engine's pure core (no Nest, no I/O): the definition format, its static validation,
 * simulation and the walker the runtime will reuse. The definitions and runtime modules import
 * only from this file.
 */
export { START_KEY, definitionSchema } from './definition.model';
export type {
  ApprovalNode,
  AssigneeSpec,
  Branch,
  CcNode,
  EndNode,
  ExclusiveGateway,
  FlowNode,
  GatewayNode,
  NodeKind,
  ParallelGateway,
  TimeoutAction,
  WorkflowDefinition,
} from './definition.model';
export { compileDefinition, validateDefinition, DefinitionProblemCode } from './definition.validator';
export type { DefinitionCompilation, DefinitionProblem, DefinitionValidation } from './definition.validator';
export { simulateDefinition, simulationRequestSchema } from './simulation';
export type { AssigneeDirectory, SimulatedTask, SimulatedVote, SimulationContext, SimulationOutcome, SimulationRequest, SimulationResult } from './simulation';
export { DefinitionGraph, listNodes } from './definition-graph';
export type { Continuation, NodeEntry } from './definition-graph';
export { decideApproval, readVariable, resolveAssignees, selectBranch } from './walker';
export type { ApprovalDecision, AssigneeSources, BranchChoice, VoteValue } from './walker';
export { CONDITION_OPERATORS, checkCondition, evaluateCondition, ConditionEvaluationError, ConditionRejectedError } from './condition';
export { DEFINITION_JSON_SCHEMA, DESIGNER_SCHEMA } from './designer-schema';
export type { DesignerField } from './designer-schema';
