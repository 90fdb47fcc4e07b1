import { useQuery } from '@tanstack/react-query';
import { api, type Me } from './api';

/** Who is logged in (`GET /api/v1/auth/me`); shared by every page through the query cache. */
export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: api.me, staleTime: 60_000 });
}

export function canWrite(me: Me | undefined, role: 'member' | 'admin'): boolean {
  if (!me) return false;
  return role === 'member' ? me.role === 'admin' || me.role === 'member' : me.role === 'admin';
}
