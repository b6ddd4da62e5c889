/** Stands in for the authentication guard in these tests: a caller named by a header, as JwtAuthGuard would set. */
export class FakeCallerGuard {
  canActivate(ctx: { switchToHttp(): { getRequest(): { headers: Record<string, string>; caller?: unknown } } }) {
    const req = ctx.switchToHttp().getRequest();
    if (req.headers['x-test-subject']) req.caller = { tenantId: 't1', subject: req.headers['x-test-subject'] };
    return true;
  }
}
