import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';

/** /redirect/{path}: forwards to /{path} (used to reload a tab). Hidden and never tabbed. */
export function RedirectPage() {
  const { '*': target = '' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    navigate(`/${target}${search}`, { replace: true });
  }, [navigate, target, search]);
  return null;
}
