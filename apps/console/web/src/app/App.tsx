import { BrowserRouter, Route, Routes } from 'react-router';
import { SessionProvider, useSessionState } from '../api/session';
import { screens } from '../screens';
import { Home, Layout } from './Layout';
import { OidcCallback } from './oidc';
import { SignIn } from './SignIn';

function Routed() {
  const { session } = useSessionState();
  return (
    <Routes>
      <Route path="/oidc/callback" element={<OidcCallback />} />
      {session ? (
        <Route element={<Layout />}>
          <Route index element={<Home />} />
          {/* Every screen is reachable by its address; the API answers 403 where the user may not. */}
          {screens.map((screen) => (
            <Route key={screen.path} path={`/${screen.path}/*`} element={<screen.component />} />
          ))}
          <Route path="*" element={<p>No such screen.</p>} />
        </Route>
      ) : (
        <Route path="*" element={<SignIn />} />
      )}
    </Routes>
  );
}

export function App() {
  return (
    <BrowserRouter basename="/console">
      <SessionProvider>
        <Routed />
      </SessionProvider>
    </BrowserRouter>
  );
}
