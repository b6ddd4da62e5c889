import type { ComponentType } from 'react';

/**
 * One screen of the console. The menu shows it when the user holds any of `needs` (from
 * `/me/permissions`); the API still decides every call the screen makes.
 */
export interface ScreenDefinition {
  /** Path under `/console/`, without a leading slash (`access`, `why`, ...). */
  path: string;
  label: string;
  needs: readonly string[];
  component: ComponentType;
}
