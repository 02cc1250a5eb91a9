// Types of `pgpass` (no @types package): the one function perfpipe calls.
declare module 'pgpass' {
  /** Calls back with the password of the first matching line of PGPASSFILE or ~/.pgpass, or undefined. */
  function pgpass(connection: { host?: string; port?: number; database?: string; user?: string }, callback: (password: string | undefined) => void): void;
  export default pgpass;
}
