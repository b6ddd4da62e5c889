import { NotFoundError } from '@lp/contracts';

/** A feature code with no definition (codes are global, spec §2). */
export class FeatureNotFoundError extends NotFoundError {
  constructor(featureCode: string) {
    super(`Feature ${featureCode}`);
  }
}
