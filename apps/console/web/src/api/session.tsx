import { createContext, ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiClient } from './client';

const TOKEN_KEY = 'lp.console.token';

/** `GET /api/authorization/me/permissions`: what the signed-in user holds, the menu's source. */
export interface MyPermissions {
  tenantId: string;
  subject: string;
  codes: string[];
  disabledFeatures: string[];
}

export interface Session {
  token: string;
  api: ApiClient;
  /** The token's own claims, for display only (the API verifies the token, not the console). */
  claims: { sub?: string; tenantId?: string; exp?: number };
  permissions: MyPermissions | undefined;
  permissionsLoading: boolean;
  permissionsError: unknown;
  /** Whether the user holds any of the codes (the menu and the buttons ask; the API decides). */
  canAny(codes: readonly string[]): boolean;
  signOut(): void;
}

interface SessionState {
  session: Session | undefined;
  signIn(token: string): void;
  signOut(): void;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

export function decodeClaims(token: string): Session['claims'] {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as Record<string, unknown>;
    return {
      sub: typeof claims.sub === 'string' ? claims.sub : undefined,
      tenantId: typeof claims.tenantId === 'string' ? claims.tenantId : typeof claims.tenant_id === 'string' ? claims.tenant_id : undefined,
      exp: typeof claims.exp === 'number' ? claims.exp : undefined,
    };
  } catch {
    return {};
  }
}

/** The token lives in sessionStorage: it ends with the tab, and no other site can read it. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | undefined>(() => sessionStorage.getItem(TOKEN_KEY) ?? undefined);
  const queryClient = useQueryClient();

  const signOut = useCallback(() => {
    sessionStorage.removeItem(TOKEN_KEY);
    queryClient.clear();
    setToken(undefined);
  }, [queryClient]);

  const signIn = useCallback(
    (value: string) => {
      const trimmed = value.trim().replace(/^Bearer\s+/i, '');
      sessionStorage.setItem(TOKEN_KEY, trimmed);
      queryClient.clear();
      setToken(trimmed);
    },
    [queryClient],
  );

  const api = useMemo(() => (token ? new ApiClient(token, '', signOut) : undefined), [token, signOut]);
  const permissions = useQuery({
    queryKey: ['me', 'permissions', token],
    queryFn: ({ signal }) => (api as ApiClient).get<MyPermissions>('/api/authorization/me/permissions', undefined, signal),
    enabled: api !== undefined,
    staleTime: 30_000,
  });

  const session = useMemo<Session | undefined>(() => {
    if (!token || !api) return undefined;
    const codes = new Set(permissions.data?.codes ?? []);
    return {
      token,
      api,
      claims: decodeClaims(token),
      permissions: permissions.data,
      permissionsLoading: permissions.isPending,
      permissionsError: permissions.error,
      canAny: (wanted) => wanted.some((code) => codes.has(code)),
      signOut,
    };
  }, [token, api, permissions.data, permissions.isPending, permissions.error, signOut]);

  const state = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}

export function useSessionState(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSessionState outside SessionProvider');
  return state;
}

/** The signed-in session; screens render only inside the signed-in layout. */
export function useSession(): Session {
  const { session } = useSessionState();
  if (!session) throw new Error('useSession without a signed-in user');
  return session;
}
