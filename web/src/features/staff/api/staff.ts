/**
 * A merchant's staff (docs/api.md "Staff and roles"): its owners list, add, disable,
 * enable and remove its users, give each a role, and may require two-factor of everyone.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiSchema, post } from '@/lib/request';

export const STAFF_LIST_URL = '/adminapi/staff/list';
export const STAFF_ADD_URL = '/adminapi/staff/add';
export const STAFF_SET_ROLE_URL = '/adminapi/staff/setRole';
export const STAFF_DISABLE_URL = '/adminapi/staff/disable';
export const STAFF_ENABLE_URL = '/adminapi/staff/enable';
export const STAFF_REMOVE_URL = '/adminapi/staff/remove';
export const STAFF_REQUIRE_TWO_FACTOR_URL = '/adminapi/staff/requireTwoFactor';

export type StaffMember = ApiSchema<'StaffMember'>;
export type StaffList = ApiSchema<'StaffList'>;
export type AddStaffRequest = ApiSchema<'AddStaffRequest'>;
export type MerchantRole = ApiSchema<'MerchantRole'>;

export const MERCHANT_ROLES: readonly MerchantRole[] = ['owner', 'finance', 'operator', 'developer', 'viewer'];

const STAFF_KEY = ['staff'] as const;

export const staffQueryOptions = () => queryOptions({ queryKey: STAFF_KEY, queryFn: () => post(STAFF_LIST_URL, {}) });

export function useStaff() {
  return useQuery(staffQueryOptions());
}

export function addStaff(request: AddStaffRequest): Promise<StaffMember> {
  return post(STAFF_ADD_URL, request);
}

export function setStaffRole(request: { user_id: number; role: MerchantRole }): Promise<null> {
  return post(STAFF_SET_ROLE_URL, request);
}

export function disableStaff(userId: number): Promise<null> {
  return post(STAFF_DISABLE_URL, { user_id: userId });
}

export function enableStaff(userId: number): Promise<null> {
  return post(STAFF_ENABLE_URL, { user_id: userId });
}

export function removeStaff(userId: number): Promise<null> {
  return post(STAFF_REMOVE_URL, { user_id: userId });
}

export function requireTwoFactor(required: boolean): Promise<null> {
  return post(STAFF_REQUIRE_TWO_FACTOR_URL, { required });
}

/** A change refreshes the list. */
export function useStaffChange<TRequest, TResult>(call: (request: TRequest) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => void client.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}
