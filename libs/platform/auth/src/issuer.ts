// The token issuer alone, for `npm run token`: the package's main entry loads passport and Nest,
// which a command that only signs a token does not need (seconds of start-up on every call).
export * from './lib/access-token.issuer';
