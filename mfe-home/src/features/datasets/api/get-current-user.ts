import { useQuery } from '@tanstack/react-query';
import { currentUserQuery } from '@scholia/shared/api';

export function useCurrentUser() {
  return useQuery(currentUserQuery());
}
