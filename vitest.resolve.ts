/**
 * One graphql module in tests, as in production: Vite would pick the package's ESM build for our
 * code while Apollo and graphql-ws load its CommonJS build, and a GraphQLError from one is not an
 * instance of the other's (graphql-ws refuses such errors, Apollo wraps them).
 */
export const resolveOneGraphql = { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] };
