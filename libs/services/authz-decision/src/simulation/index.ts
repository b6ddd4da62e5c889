export * from './overlay-policy-facts';
export * from './policy-overlay.validator';
export * from './policy-simulator';
export * from './simulation.module';
export * from './sql-simulation-catalog';
