import { ConfigValidationError } from '@lp/platform/config';
import { announceFeatureEnabledVerdict, authzDecisionConfig } from './authz-decision.config';

describe('authz-decision configuration', () => {
  it('makes an enabled feature a gate by default, and accepts only neutral or allow', () => {
    expect(authzDecisionConfig.load({}).AUTHZ_FEATURE_ENABLED_VERDICT).toBe('neutral');
    expect(authzDecisionConfig.load({ AUTHZ_FEATURE_ENABLED_VERDICT: 'allow' }).AUTHZ_FEATURE_ENABLED_VERDICT).toBe('allow');
    expect(() => authzDecisionConfig.load({ AUTHZ_FEATURE_ENABLED_VERDICT: 'grant' })).toThrow(ConfigValidationError);
  });

  it('warns once at start when the spec-literal setting is on, and says nothing for the default', () => {
    const warn = jest.fn();
    announceFeatureEnabledVerdict({ AUTHZ_FEATURE_ENABLED_VERDICT: 'neutral' }, { warn });
    expect(warn).not.toHaveBeenCalled();
    announceFeatureEnabledVerdict({ AUTHZ_FEATURE_ENABLED_VERDICT: 'allow' }, { warn });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('AUTHZ_FEATURE_ENABLED_VERDICT=allow');
  });
});
