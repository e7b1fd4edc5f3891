// A guard around a plugin client that records (and refuses) every call that could change host
// state. Only reads of sessions and messages and `app.log` pass. Test-only.

/** Client methods that only read, by their dotted path. */
const READ_ONLY_METHODS: ReadonlySet<string> = new Set(["session.list", "session.get", "session.messages", "session.message", "session.children", "app.log"]);

export interface GuardedClient<T> {
  client: T;
  /** Dotted paths of the refused calls, in order. */
  violations: string[];
  /** Dotted paths of the allowed calls, in order. */
  reads: string[];
}

export function readOnlyGuard<T extends object>(target: T): GuardedClient<T> {
  const violations: string[] = [];
  const reads: string[] = [];

  function wrap(value: object, path: string[]): unknown {
    return new Proxy(value, {
      get(object, key, receiver) {
        const member = Reflect.get(object, key, receiver) as unknown;
        if (typeof key === "symbol") return member;
        const here = [...path, key];
        if (typeof member === "function") {
          return (...args: unknown[]) => {
            const name = here.join(".");
            if (!READ_ONLY_METHODS.has(name)) {
              violations.push(name);
              throw new Error(`read-only guard: the plugin called ${name}, which may change host state`);
            }
            reads.push(name);
            return (member as (...a: unknown[]) => unknown).apply(object, args);
          };
        }
        return member !== null && typeof member === "object" ? wrap(member, here) : member;
      },
      set(_object, key) {
        violations.push(`set ${[...path, String(key)].join(".")}`);
        return false;
      },
    });
  }

  return { client: wrap(target, []) as T, violations, reads };
}
