import { useMutation } from '@tanstack/react-query';
import { createToken, login } from '@scholia/shared/api';

/** POST /api/v1/token, then logout-first login (spec §4). */
export function useSignIn() {
  return useMutation({
    mutationFn: async ({ username, password }: { username: string; password: string }) => {
      const { access_token } = await createToken(username, password);
      login(access_token);
    },
  });
}
