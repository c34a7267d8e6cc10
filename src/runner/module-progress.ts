/**
 * Progress while modules load: requiring a large tree (oidc-provider, ajv, fastify) is one synchronous stretch that an
 * interval timer cannot interrupt, so the line is said from inside it, at each module resolved (the caller throttles).
 */
import { registerHooks } from "node:module";

/** Calls `step` as each module is resolved until `stop()`; nothing where the loader has no hooks (a test's own module system). */
export function duringModuleLoads(step: () => void): { stop(): void } {
  // registerHooks is Node's (22.15, 23.5 on); a loader without it (or one that refuses it, as Jest's does) only loses the lines
  if (typeof registerHooks !== "function") return { stop: () => undefined };
  let hooks: ReturnType<typeof registerHooks>;
  try {
    hooks = registerHooks({
      resolve(specifier, context, nextResolve) {
        step();
        return nextResolve(specifier, context);
      },
    });
  } catch {
    return { stop: () => undefined };
  }
  return { stop: () => { hooks.deregister(); } };
}
