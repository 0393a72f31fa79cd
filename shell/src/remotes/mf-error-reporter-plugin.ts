import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { Emitter } from 'mitt';
import type { AppEvents } from '@scholia/shared/bus';

/**
 * MF runtime plugin: reports a remote that failed to load. It returns nothing so the original
 * error reaches the RemoteBoundary, which shows it with Retry in the remote's own area.
 * It runs before share negotiation, so it must not import shared modules: it reaches the bus
 * through the global the bus module registers (type-only imports above).
 * Default export: the MF runtime calls the module's default (the one exception to named exports).
 */
export default function mfErrorReporterPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'scholia-error-reporter',
    errorLoadRemote({ id, error, lifecycle }) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`[scholia] remote ${id} failed at ${lifecycle}:`, message);
      const bus = (globalThis as { __scholiaBus__?: Emitter<AppEvents> }).__scholiaBus__;
      bus?.emit('remote:load-failed', { remote: String(id), message });
      return undefined;
    },
  };
}
