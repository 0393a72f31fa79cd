import type { TestApi } from './api-client.js';
import type { Principals } from './fixtures.js';

export type PrincipalName = 'owner' | 'adminMember' | 'adminOutsider' | 'annotatorMember' | 'annotatorOutsider' | 'anonymous';

export const PRINCIPALS: PrincipalName[] = ['owner', 'adminMember', 'adminOutsider', 'annotatorMember', 'annotatorOutsider', 'anonymous'];

/** The client of one principal of the policy matrix. */
export function clientOf(principals: Principals, name: PrincipalName): TestApi {
  switch (name) {
    case 'owner':
    case 'anonymous':
      return principals[name];
    default:
      return principals[name].api;
  }
}

/** Expected statuses for read routes (any member) and write routes (admin member). */
export const READ_MATRIX: Record<PrincipalName, number> = {
  owner: 200,
  adminMember: 200,
  adminOutsider: 403,
  annotatorMember: 200,
  annotatorOutsider: 403,
  anonymous: 401,
};

export const WRITE_MATRIX = (success: number): Record<PrincipalName, number> => ({
  owner: success,
  adminMember: success,
  adminOutsider: 403,
  annotatorMember: 403,
  annotatorOutsider: 403,
  anonymous: 401,
});
