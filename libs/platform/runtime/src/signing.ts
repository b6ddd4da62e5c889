// The platform's settings and the embedded signing secret alone, for `npm run token`: the main entry
// loads the whole Nest runtime, which a command that only signs a token does not need.
export * from './platform-config';
export * from './signing-secret';
