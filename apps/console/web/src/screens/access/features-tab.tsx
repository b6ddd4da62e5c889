import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { Busy, ProblemMessage } from '../../ui/kit';
import { accessKeys, clearFeatureOverride, Feature, listFeatures, setFeature } from './access-api';
import { ConfirmButton } from './confirm-button';

type FeatureChange =
  { kind: 'tenant'; feature: Feature; enabled: boolean } | { kind: 'global'; feature: Feature; enabled: boolean } | { kind: 'clear'; feature: Feature };

const onOff = (value: boolean) => (value ? 'on' : 'off');

/**
 * Features as the caller's tenant sees them (`GET /features`: not paged, a short global list):
 * the switch sets the tenant's override (`PUT /features/{code}` scope `tenant`), "Follow default"
 * drops it (`DELETE /features/{code}/override`), and holders of the platform-level
 * `authorization.feature-default.update` may change the default of every tenant (scope `global`).
 * The message under the title is the API's answer to the last change.
 */
export function FeaturesTab() {
  const { api, canAny } = useSession();
  const queryClient = useQueryClient();
  const [answer, setAnswer] = useState<string>();
  const features = useQuery({ queryKey: accessKeys.features(), queryFn: ({ signal }) => listFeatures(api, signal) });

  const change = useMutation({
    mutationFn: async (request: FeatureChange): Promise<Feature | undefined> => {
      if (request.kind === 'clear') {
        await clearFeatureOverride(api, request.feature.code);
        return undefined;
      }
      return setFeature(api, request.feature.code, request.enabled, request.kind);
    },
    onMutate: () => setAnswer(undefined),
    onSuccess: async (feature, request) => {
      await queryClient.invalidateQueries({ queryKey: accessKeys.features() });
      const code = request.feature.code;
      if (request.kind === 'clear') setAnswer(`${code} follows the global default again.`);
      else if (feature && request.kind === 'tenant')
        setAnswer(`${code} is now ${onOff(feature.effective)} for this tenant (override ${onOff(feature.tenantOverride ?? feature.effective)}).`);
      else if (feature) setAnswer(`The global default of ${code} is now ${onOff(feature.globalDefault)}; in this tenant it is ${onOff(feature.effective)}.`);
    },
  });

  const mayUpdate = canAny(['authorization.feature.update']);
  const mayChangeDefault = canAny(['authorization.feature-default.update']);
  const busyCode = change.isPending ? change.variables.feature.code : undefined;

  return (
    <section aria-labelledby="features-heading">
      <h2 id="features-heading">Features of this tenant</h2>
      <p className="field-help">A feature that is off denies every request to the modules it gates, whatever the roles say.</p>
      {features.isPending && <Busy label="Loading features…" />}
      <ProblemMessage error={features.error} title="The features could not be read" />
      <ProblemMessage error={change.error} title="The feature was not changed" />
      <p role="status" aria-live="polite" className={answer ? 'success' : 'visually-hidden'}>
        {answer}
      </p>
      {features.data && (
        <table className="access-table">
          <caption className="visually-hidden">Features and their state in this tenant</caption>
          <thead>
            <tr>
              <th scope="col">Feature</th>
              <th scope="col">Description</th>
              <th scope="col">In this tenant</th>
              <th scope="col">Global default</th>
              <th scope="col">Tenant override</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {features.data.items.map((feature) => {
              const busy = busyCode === feature.code;
              return (
                <tr key={feature.code}>
                  <th scope="row" id={`feature-${feature.code}`}>
                    <code>{feature.code}</code>
                  </th>
                  <td>{feature.description}</td>
                  <td>
                    <button
                      type="button"
                      role="switch"
                      aria-checked={feature.effective}
                      aria-labelledby={`feature-${feature.code}`}
                      className={feature.effective ? 'access-switch on' : 'access-switch'}
                      disabled={!mayUpdate || change.isPending}
                      onClick={() => change.mutate({ kind: 'tenant', feature, enabled: !feature.effective })}
                    >
                      <span aria-hidden="true" className="access-switch-knob" />
                      {busy ? 'saving…' : onOff(feature.effective)}
                    </button>
                  </td>
                  <td>{onOff(feature.globalDefault)}</td>
                  <td>{feature.tenantOverride === null ? 'none (follows the default)' : onOff(feature.tenantOverride)}</td>
                  <td className="access-actions">
                    {mayUpdate && feature.tenantOverride !== null && (
                      <button
                        type="button"
                        className="secondary"
                        disabled={change.isPending}
                        aria-label={`Follow default: ${feature.code}`}
                        onClick={() => change.mutate({ kind: 'clear', feature })}
                      >
                        Follow default
                      </button>
                    )}
                    {mayChangeDefault && (
                      <ConfirmButton
                        label={`Make default ${onOff(!feature.globalDefault)}`}
                        name={`Make default ${onOff(!feature.globalDefault)} for all tenants: ${feature.code}`}
                        question={`Turn ${feature.code} ${onOff(!feature.globalDefault)} by default for every tenant without an override?`}
                        confirmLabel={`Yes, default ${onOff(!feature.globalDefault)}`}
                        busy={busy && change.variables?.kind === 'global'}
                        busyLabel="Saving…"
                        tone="secondary"
                        onConfirm={() => change.mutate({ kind: 'global', feature, enabled: !feature.globalDefault })}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
