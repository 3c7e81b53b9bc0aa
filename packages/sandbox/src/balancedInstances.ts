import type { IncomingMessage } from 'node:http';

/**
 * For the faults of state kept per instance: which of two instances behind a balancer that pins
 * each connection to one of them (round robin over new connections) serves a request.
 */
export function createBalancedInstances(): (req: IncomingMessage) => number {
  const instances = new WeakMap<object, number>();
  let connections = 0;
  return (req) => {
    let instance = instances.get(req.socket);
    if (instance === undefined) {
      instance = connections++ % 2;
      instances.set(req.socket, instance);
    }
    return instance;
  };
}
