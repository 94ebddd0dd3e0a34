import { useNavigate, useSearchParams } from 'react-router';
import { LoginPage } from '@/features/auth/components/login-page';
import { postLoginHref } from '../guards/route-access';
import { WORKPLACE_PATH } from './route-names';
import { preloadSignedInShell } from './preload-signed-in-shell';
import { pathOfRouteName } from './route-table';

/** /login: after a successful login go to the `redirect` target (keeping its query) or the workplace. */
export default function LoginRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const onLoggedIn = () => {
    const query = Object.fromEntries(searchParams.entries());
    navigate(postLoginHref(query, pathOfRouteName, WORKPLACE_PATH), { replace: true });
  };
  return (
    <div onFocusCapture={preloadSignedInShell} onPointerDownCapture={preloadSignedInShell}>
      <LoginPage onLoggedIn={onLoggedIn} />
    </div>
  );
}
