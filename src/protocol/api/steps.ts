/**
 * The steps a provision request may carry (`PUT /v1/nodes/{node}/states/provision`): `clean_steps`,
 * `service_steps` and `deploy_steps`, as Ironic's `_STEPS_SCHEMA` and `DEPLOY_STEP_SCHEMA`
 * (`api/controllers/v1/node.py`, `utils.py`) define them, checked by the API with python-jsonschema's
 * errors (`protocol/json-schema-errors.ts`). NOTE: Ironic's clean and service steps may also carry
 * `order`, `execute_on_child_nodes` and `limit_child_node_execution` (runbooks, child nodes); Ingot has
 * neither, so a step naming them is refused as an unknown key rather than run without them.
 */
import type { Static } from 'typebox';
import * as Type from 'typebox/type';
import type { JsonObject } from '../../shared/json.js';
import { jsonObject, stringEnum } from '../schema-kit.js';

/** Interfaces whose clean and deploy steps a user may request (Ironic's `CLEANING_INTERFACE_PRIORITY`). */
export const CLEAN_STEP_INTERFACES = ['vendor', 'power', 'management', 'firmware', 'deploy', 'bios', 'raid'] as const;
/** Interfaces of service steps (`SERVICING_INTERFACE_PRIORITY`: the cleaning ones and `network`). */
export const SERVICE_STEP_INTERFACES = [...CLEAN_STEP_INTERFACES, 'network'] as const;
/** An interface a requested step may name. */
export type StepInterface = (typeof SERVICE_STEP_INTERFACES)[number];

const stepName = () => Type.String({ minLength: 1 });

/** A clean or service step: `{interface, step, args?}`, nothing else. */
const manualStep = <I extends readonly StepInterface[]>(interfaces: I) =>
  Type.Object(
    { interface: Type.Unsafe<I[number]>({ enum: [...interfaces] }), step: stepName(), args: Type.Optional(jsonObject()) },
    { additionalProperties: false },
  );

/** `clean_steps`: run in the order given. */
export const CleanStepsBody = Type.Array(manualStep(CLEAN_STEP_INTERFACES));
/** `service_steps` (1.87): run in the order given. */
export const ServiceStepsBody = Type.Array(manualStep(SERVICE_STEP_INTERFACES));

/** `deploy_steps` (1.69): every key required; the priority places the step among the driver's. */
export const DeployStepsBody = Type.Array(
  Type.Object(
    {
      args: jsonObject(),
      interface: stringEnum(CLEAN_STEP_INTERFACES),
      priority: Type.Union([Type.Integer({ minimum: 0 }), Type.String({ minLength: 1, pattern: '^[0-9]+$' })]),
      step: stepName(),
    },
    { additionalProperties: false },
  ),
);
export type DeployStepsBody = Static<typeof DeployStepsBody>;

/**
 * A step as the conductor receives it: a checked clean, service or deploy step, the priority of a deploy
 * step as a number (the wire also allows a string of digits).
 */
export interface RequestedStep {
  interface: StepInterface;
  step: string;
  args?: JsonObject;
  priority?: number;
}
