import { PgErrorCode, sqlState } from './postgres-errors';

describe('sqlState', () => {
  it('reads the code of a TypeORM QueryFailedError and of a bare driver error', () => {
    expect(sqlState({ driverError: { code: PgErrorCode.UniqueViolation } })).toBe('23505');
    expect(sqlState({ code: PgErrorCode.ForeignKeyViolation })).toBe('23503');
  });

  it('is undefined for anything that is not a SQLSTATE (a Node error code, nothing at all)', () => {
    expect(sqlState(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(sqlState(undefined)).toBeUndefined();
    expect(sqlState(null)).toBeUndefined();
  });
});
