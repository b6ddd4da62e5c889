export * from './delivery-headers';
export * from './delivery-signatures';
export * from './signing-secret';
