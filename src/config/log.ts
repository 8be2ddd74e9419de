import { Type, type Static } from 'typebox';

/** Logging. */
export const LogConfig = Type.Object({
  level: Type.Union([Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'), Type.Literal('info'), Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent')], {
    default: 'info',
    description: 'Minimum level of the JSON log lines written to stderr.',
  }),
});
export type LogConfig = Static<typeof LogConfig>;
