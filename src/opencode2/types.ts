// Contracts shared by the OpenCode 2 adapter's files.

/** What a hook or transform registration resolves to (packages/plugin/src/promise/registration.ts@baf3a659). */
export interface V2Registration {
  readonly dispose: () => Promise<void>;
}
