// The users of ClickHouse's HTTP interface, resolved once at start-up: each configured user's password read from
// its environment variable or file (never from the config text), and the check of a request's credentials
// (docs/clickhouse-http.md §2).
import { readFileSync, statSync } from 'node:fs';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { ServeUser } from '../../ingest/config/serve-config.js';
import { ConfigError } from '../../ingest/errors/errors.js';
import { chError } from './errors.js';
import type { Credentials } from './request-params.js';

export interface HttpUser {
  name: string;
  /** Read-only: the engine runs its queries with readonly=2. */
  readonly: boolean;
  /** SHA-256 of each password accepted; empty for a user without one. */
  passwords: Buffer[];
}

const digest = (password: string): Buffer => createHash('sha256').update(password, 'utf8').digest();

/** Configured users with their passwords read now: a variable that is not set or a file that cannot be read stops start-up. */
export function resolveUsers(users: readonly ServeUser[], env: NodeJS.ProcessEnv = process.env): HttpUser[] {
  return users.map((u, i) => {
    const where = `serve.users[${i}] (${u.name})`;
    let password: string | null = null;
    if (u.password_env !== undefined) {
      password = env[u.password_env] ?? null;
      if (password === null || password === '') throw new ConfigError(`${where}: the environment variable ${u.password_env} that holds the password is not set`);
    } else if (u.password_file !== undefined) {
      try {
        if ((statSync(u.password_file).mode & 0o004) !== 0) throw new ConfigError(`${where}: ${u.password_file} is readable by every user of this machine; chmod o-r it`);
        password = readFileSync(u.password_file, 'utf8').replace(/\r?\n$/, '');
      } catch (error) {
        if (error instanceof ConfigError) throw error;
        throw new ConfigError(`${where}: cannot read the password file ${u.password_file}: ${(error as Error).message}`);
      }
      if (password === '') throw new ConfigError(`${where}: the password file ${u.password_file} is empty`);
    }
    return { name: u.name, readonly: u.readonly, passwords: password === null ? [] : [digest(password)] };
  });
}

/**
 * The user whose name and password match. Otherwise ClickHouse's answer: REQUIRED_PASSWORD (HTTP 401 with a Basic
 * challenge) when no password came, AUTHENTICATION_FAILED (HTTP 403) for a wrong one; both say the same for an
 * unknown name as for a known one. Passwords are compared as digests, in constant time.
 */
export function authenticate(users: readonly HttpUser[], c: Credentials): HttpUser {
  const user = users.find((u) => u.name === c.user);
  const given = digest(c.password);
  const ok = user !== undefined && (user.passwords.length === 0 ? c.password === '' : user.passwords.some((p) => timingSafeEqual(p, given)));
  if (ok && user) return user;
  const message = `${c.user}: Authentication failed: password is incorrect, or there is no user with such name`;
  throw c.password === '' ? chError('REQUIRED_PASSWORD', message) : chError('AUTHENTICATION_FAILED', message);
}
