import { DefinitionBindingEntity } from './definition-binding.entity';
import { DefinitionDeploymentEntity } from './definition-deployment.entity';
import { DefinitionDraftEntity } from './definition-draft.entity';
import { DefinitionVersionEntity } from './definition-version.entity';
import { DefinitionEntity } from './definition.entity';

export * from './definition.entity';
export * from './definition-version.entity';
export * from './definition-draft.entity';
export * from './definition-binding.entity';
export * from './definition-deployment.entity';

/** Every entity of the `workflow` schema's definition store. */
export const WORKFLOW_ENTITIES = [DefinitionEntity, DefinitionVersionEntity, DefinitionDraftEntity, DefinitionBindingEntity, DefinitionDeploymentEntity];
