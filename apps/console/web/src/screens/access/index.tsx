import { useQuery } from '@tanstack/react-query';
import type { Page } from '../../api/client';
import { useSession } from '../../api/session';
import { Busy, ProblemMessage, ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';

interface Role {
  id: string;
  name: string;
}

function AccessScreen() {
  const { api } = useSession();
  const roles = useQuery({ queryKey: ['roles'], queryFn: ({ signal }) => api.get<Page<Role>>('/api/authorization/roles', undefined, signal) });
  return (
    <section>
      <ScreenTitle>Access</ScreenTitle>
      {roles.isPending ? <Busy /> : null}
      <ProblemMessage error={roles.error} />
      <ul>
        {roles.data?.items.map((role) => (
          <li key={role.id}>{role.name}</li>
        ))}
      </ul>
    </section>
  );
}

export const accessScreen: ScreenDefinition = { path: 'access', label: 'Access', needs: ['authorization.role.view'], component: AccessScreen };
