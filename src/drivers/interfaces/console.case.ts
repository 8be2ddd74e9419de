/** Conformance suite of {@link ConsoleInterface}. */
import { describe, expect, it } from 'vitest';
import { commonShape, sampleTask } from './sample-task.test-support.js';
import type { ConsoleInterface } from './console.js';

export function consoleConformance(label: string, make: () => ConsoleInterface): void {
  describe(`console interface conformance: ${label}`, () => {
    it('has a name and documented properties', () => expect(commonShape(make())).toEqual([]));
    it('starts, describes and stops a console', async () => {
      const c = make();
      const task = sampleTask({ console_enabled: true });
      await c.validate(task);
      await c.startConsole(task);
      const info = await c.getConsole(task);
      expect(typeof info.type).toBe('string');
      expect(info.url.length).toBeGreaterThan(0);
      await c.stopConsole(task);
    });
  });
}
