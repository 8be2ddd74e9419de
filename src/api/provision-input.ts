/**
 * What a provision request (`PUT /v1/nodes/{node}/states/provision`) hands to the conductor, with the
 * checks Ironic's API makes on its shape (`NodeStatesController.provision`, `_do_provision_action`): which
 * arguments go with which verb, the versions of the newer ones, the step lists against their schemas
 * (`protocol/api/steps.ts`). The node's state (maintenance, protection, the transition) is the
 * conductor's to check, under the node lock.
 */
import type { ProvisionOptions } from '../conductor/client.js';
import type { ProvisionVerb } from '../domain/states.js';
import type { ProvisionBody } from '../protocol/api/bodies.js';
import { CleanStepsBody, DeployStepsBody, ServiceStepsBody, type RequestedStep } from '../protocol/api/steps.js';
import { checkSchema, longSchemaMessage, type SchemaError } from '../protocol/json-schema-errors.js';
import { fail } from '../shared/errors.js';
import { toBool } from '../shared/strict-bool.js';
import { requireVersion } from './microversion.js';

type StepKind = 'clean' | 'deploy' | 'service';

/** Verbs that deploy (and so take a config drive and deploy steps). */
const DEPLOYS: ReadonlySet<ProvisionVerb> = new Set(['active', 'rebuild', 'deploy']);

/** Ironic reads a missing and an empty step list alike (`if clean_steps`). */
const given = (steps: unknown[] | null | undefined): steps is unknown[] => Array.isArray(steps) && steps.length > 0;

/**
 * Checks a step list against its schema (Ironic's `_check_steps`), naming the first problem as Ironic's
 * jsonschema does; a deploy step's priority becomes a number.
 */
export function checkSteps(kind: StepKind, steps: unknown[]): RequestedStep[] {
  const invalid = (e: SchemaError) => fail('stepsInvalid', { kind, reason: longSchemaMessage(e) });
  switch (kind) {
    case 'clean':
      return checkSchema(CleanStepsBody, steps, invalid);
    case 'service':
      return checkSchema(ServiceStepsBody, steps, invalid);
    case 'deploy':
      return checkSchema(DeployStepsBody, steps, invalid).map((s) => ({ ...s, priority: Number(s.priority) }));
  }
}

function onlyFor(field: string, targets: string): never {
  throw fail('onlyValidForTarget', { field, targets });
}

function requiredFor(field: string, target: string): never {
  throw fail('requiredForTarget', { field, target });
}

/** The conductor's options for `target` from a checked body; InvalidParameterValue or NotAcceptable (406). */
export function provisionOptionsFromBody(target: ProvisionVerb, body: ProvisionBody, minor: number): ProvisionOptions {
  const options: ProvisionOptions = {};
  if (body.configdrive !== undefined && body.configdrive !== null) {
    if (!DEPLOYS.has(target)) throw fail('configdriveNotForTarget');
    if (typeof body.configdrive === 'object') requireVersion(minor, 56, 'a JSON configdrive');
    options.configdrive = body.configdrive;
  }
  if (body.disable_ramdisk !== undefined && body.disable_ramdisk !== null) {
    requireVersion(minor, 70, 'disable_ramdisk');
    if (target !== 'clean' && target !== 'service') throw fail('disableRamdiskNotForTarget');
    options.disable_ramdisk = toBool('disable_ramdisk', body.disable_ramdisk);
  }
  if (given(body.clean_steps) && target !== 'clean') onlyFor('clean_steps', 'clean');
  if (given(body.deploy_steps)) {
    requireVersion(minor, 69, 'deploy_steps');
    if (!DEPLOYS.has(target)) onlyFor('deploy_steps', 'active, rebuild or deploy');
  }
  if (body.rescue_password !== undefined && body.rescue_password !== null && target !== 'rescue') onlyFor('rescue_password', 'rescue');
  if (given(body.service_steps)) {
    requireVersion(minor, 87, 'service_steps');
    if (target !== 'service') onlyFor('service_steps', 'service');
  }
  if (body.runbook !== undefined && body.runbook !== null) {
    throw fail('runbooksNotSupported');
  }
  // What each verb needs, once the arguments are known to belong to it (`_do_provision_action`).
  if (DEPLOYS.has(target) && given(body.deploy_steps)) options.deploy_steps = checkSteps('deploy', body.deploy_steps);
  if (target === 'clean') {
    if (!given(body.clean_steps)) requiredFor('clean_steps', 'clean');
    options.clean_steps = checkSteps('clean', body.clean_steps);
  }
  if (target === 'service') {
    if (!given(body.service_steps)) requiredFor('service_steps', 'service');
    options.service_steps = checkSteps('service', body.service_steps);
  }
  if (target === 'rescue') {
    if (!body.rescue_password?.trim()) throw fail('rescuePasswordRequired');
    options.rescue_password = body.rescue_password;
  }
  return options;
}
