/**
 * The workflow engine's pure core (no Nest, no I/O): the definition format, its static validation,
 * simulation and (later) the runtime transitions. This file fixes the API the definitions and
 * runtime modules build on; the bodies are written on the engine's own branch.
 */
import { z } from 'zod';

/** One problem of a definition, tied to the node it concerns. Codes are stable (`Workflow.Definition.*`). */
export interface DefinitionProblem {
  code: string;
  message: string;
  /** The key of the node concerned, when there is one. */
  nodeKey?: string;
  /** JSON path of the offending value inside the definition, when known. */
  path?: string;
}

/** A definition that passed the structural (JSON Schema level) check: "compilable". */
export type WorkflowDefinition = Record<string, unknown> & { name: string };

export type DefinitionCompilation = { ok: true; definition: WorkflowDefinition } | { ok: false; problems: DefinitionProblem[] };

export interface DefinitionValidation {
  valid: boolean;
  problems: DefinitionProblem[];
}

/** Where role members come from (policy-management over RPC in the service; a map in tests). */
export interface AssigneeDirectory {
  membersOfRole(tenantId: string, roleName: string): Promise<string[]>;
}

export interface SimulationContext {
  tenantId: string;
  initiator: string;
  directory: AssigneeDirectory;
}

/** What a simulation takes besides the definition (the request body of the simulate routes). */
export const simulationRequestSchema = z.strictObject({ variables: z.record(z.string(), z.unknown()).optional() });
export type SimulationRequest = z.output<typeof simulationRequestSchema>;

export interface SimulationResult {
  /** Node keys in the order they are reached. */
  path: string[];
  /** The tasks that would be created, in order. */
  tasks: Array<{ nodeKey: string; assignees: string[] }>;
  outcome: string;
}

const NOT_BUILT = 'workflow engine core: not built yet';

/** Structural check only (shape, types, node kinds): what the legacy deploy route requires. */
export function compileDefinition(_json: unknown): DefinitionCompilation {
  throw new Error(NOT_BUILT);
}

/** Compilation plus every static rule (unique keys, one default per exclusive gateway, ...). */
export function validateDefinition(_json: unknown): DefinitionValidation {
  throw new Error(NOT_BUILT);
}

/** The path a definition takes for the given variables and votes, and the tasks it would create; nothing is written. */
export function simulateDefinition(_definition: WorkflowDefinition, _request: SimulationRequest, _context: SimulationContext): Promise<SimulationResult> {
  throw new Error(NOT_BUILT);
}

/** The JSON Schema of the definition format (`GET /api/workflow/definitions/schema`). */
export const DEFINITION_JSON_SCHEMA: Record<string, unknown> = {};

/** Node config fields and the resolver and handler catalogs (`GET /api/workflow/definitions/designer-schema`). */
export const DESIGNER_SCHEMA: Record<string, unknown> = {};
