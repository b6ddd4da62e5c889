import { DefinitionBindingEntity } from './definition-binding.entity';
import { DefinitionDeploymentEntity } from './definition-deployment.entity';
import { DefinitionDraftEntity } from './definition-draft.entity';
import { DefinitionVersionEntity } from './definition-version.entity';
import { DefinitionEntity } from './definition.entity';
import { WorkflowInstanceEntity } from './workflow-instance.entity';
import { WorkflowTaskEntity } from './workflow-task.entity';

export * from './definition.entity';
export * from './definition-version.entity';
export * from './definition-draft.entity';
export * from './definition-binding.entity';
export * from './definition-deployment.entity';
export * from './workflow-instance.entity';
export * from './workflow-task.entity';

/** Every entity of the `workflow` schema: the definition store and the runtime store. */
export const WORKFLOW_ENTITIES = [
  DefinitionEntity,
  DefinitionVersionEntity,
  DefinitionDraftEntity,
  DefinitionBindingEntity,
  DefinitionDeploymentEntity,
  WorkflowInstanceEntity,
  WorkflowTaskEntity,
];
