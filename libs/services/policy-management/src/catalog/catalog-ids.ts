import { v5 as uuidv5 } from 'uuid';

/** Namespace of the ids below (RFC 9562 name-based UUIDs); never change it, ids are persisted. */
const CATALOG_NAMESPACE = '6f1c2a7e-3d4b-5c8e-9a0f-1b2c3d4e5f60';

/**
 * Seeded rows get ids derived from their keys, so every instance and every start computes the same
 * id for the same row: a second start, or two instances seeding at once, leave identical rows.
 */
export const CatalogIds = {
  permission: (code: string) => uuidv5(`permission:${code}`, CATALOG_NAMESPACE),
  seededRole: (tenantId: string, name: string) => uuidv5(`role:${tenantId}:${name}`, CATALOG_NAMESPACE),
};
