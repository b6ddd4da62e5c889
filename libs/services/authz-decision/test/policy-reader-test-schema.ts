import { join } from 'node:path';

/** Path of `test-schema.sql`: the `authz` tables as policy-management's migrations create them. */
export const POLICY_READER_TEST_SCHEMA = join(__dirname, 'test-schema.sql');
