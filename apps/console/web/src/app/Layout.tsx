import { NavLink, Outlet } from 'react-router';
import { asProblem } from '../api/problem';
import { useSession } from '../api/session';
import { screens } from '../screens';
import { Busy, ProblemMessage } from '../ui/kit';

/** The signed-in frame: the menu (only what `/me/permissions` allows), who is signed in, the screen. */
export function Layout() {
  const session = useSession();
  const visible = screens.filter((screen) => session.canAny(screen.needs));
  const who = session.permissions?.subject ?? session.claims.sub ?? 'unknown';
  const tenant = session.permissions?.tenantId ?? session.claims.tenantId ?? 'unknown';
  return (
    <div className="frame">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Legal platform console</span>
        <span className="who">
          <span data-testid="signed-in-as">{who}</span> · tenant <span data-testid="tenant">{tenant}</span>
        </span>
        <button type="button" onClick={session.signOut}>
          Sign out
        </button>
      </header>
      <div className="body">
        <nav className="menu" aria-label="Console">
          {session.permissionsLoading ? (
            <Busy label="Loading your permissions…" />
          ) : (
            <ul>
              {visible.map((screen) => (
                <li key={screen.path}>
                  <NavLink to={`/${screen.path}`}>{screen.label}</NavLink>
                </li>
              ))}
            </ul>
          )}
        </nav>
        <main id="main" tabIndex={-1}>
          {session.permissionsError ? <ProblemMessage error={session.permissionsError} title="Your permissions could not be read" /> : null}
          {!session.permissionsLoading && !session.permissionsError && visible.length === 0 ? (
            <div className="notice" role="note">
              <h1>Nothing to administer</h1>
              <p>
                You are signed in as <strong>{who}</strong>, but you hold no administrative permission in tenant <strong>{tenant}</strong>. Ask an administrator
                for a role.
              </p>
            </div>
          ) : null}
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/** The landing page once signed in: the first screen the user may open, or nothing. */
export function Home() {
  const session = useSession();
  const first = screens.find((screen) => session.canAny(screen.needs));
  if (session.permissionsLoading || !first) return null;
  return (
    <section>
      <h1>Welcome, {session.permissions?.subject ?? session.claims.sub}</h1>
      <p>Choose a screen in the menu.</p>
      {session.permissionsError ? <p>{asProblem(session.permissionsError).detail}</p> : null}
    </section>
  );
}
