/**
 * What an operator can do after the work of a busy state failed or was lost, by that state: one table
 * for every `last_error` the flows and the recovery write.
 */
import { S, type ProvisionState } from '../../domain/states.js';

export const NEXT_STEP: Readonly<Partial<Record<ProvisionState, string>>> = {
  [S.VERIFYING]: 'Check driver_info (power credentials) and run "manage" again.',
  [S.INSPECTING]: 'Fix the cause, then "inspect" again or "manage" the node.',
  [S.INSPECTWAIT]: 'Fix the cause, then "inspect" again or "manage" the node.',
  [S.CLEANING]: 'Fix the cause, unset maintenance, then "manage" and "provide" the node again.',
  [S.CLEANWAIT]: 'Fix the cause, unset maintenance, then "manage" and "provide" the node again.',
  [S.DEPLOYING]: 'Fix the cause and deploy again, or undeploy the node.',
  [S.DEPLOYWAIT]: 'Fix the cause and deploy again, or undeploy the node.',
  [S.DELETING]: 'Fix the cause and undeploy again.',
  [S.ADOPTING]: 'Check driver_info and instance_info, then "adopt" again or "manage" the node.',
  [S.RESCUING]: 'Fix the cause and rescue again, or unrescue the node.',
  [S.RESCUEWAIT]: 'Fix the cause and rescue again, or unrescue the node.',
  [S.UNRESCUING]: 'Fix the cause and unrescue again.',
  [S.SERVICING]: 'Fix the cause and service again, or abort.',
  [S.SERVICEWAIT]: 'Fix the cause and service again, or abort.',
};

/** The advice for `state`, with a generic fallback. */
export function nextStepAfter(state: ProvisionState): string {
  return NEXT_STEP[state] ?? 'Check the node and retry the operation.';
}
