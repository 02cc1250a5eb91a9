// What a person needs from a fired alert, in a few words: what fired, where, on which lock space, who waited
// (victim) and behind whom (culprit). Read from a notice's labels and latest example, as the alerter wrote them
// (lock-facts.ts for the TJ rules, pg-lock-facts.ts for the PostgreSQL ones); nothing is parsed from the logs again.

export interface AlertDigest {
  alertname: string;
  severity: string;
  /** The 1C infobase or the PostgreSQL database. */
  scope: string;
  /** The managed-lock space (TJ) or the relation (PostgreSQL); empty when the rule has none. */
  lockSpace: string;
  /** Who waited or was chosen as the deadlock victim; empty when the rule names nobody. */
  victim: string;
  /** Whom the victim waited for; empty when unknown. */
  culprit: string;
  events: number;
}

export interface FiredAlert {
  alertname: string;
  severity: string;
  labels: Record<string, string>;
  events: number;
  last_example: Record<string, string>;
}

/** `connection 4904 (user loadtest; …)` → user by connection, from describeConnection's text (lock-facts.ts). */
function usersByConnection(text: string | undefined): Map<string, string> {
  const users = new Map<string, string>();
  for (const m of (text ?? '').matchAll(/connection (\d+) \(user ([^;)]*)/g)) users.set(m[1]!, m[2]!);
  return users;
}

const oneCParty = (connection: string, users: Map<string, string>, user?: string): string => {
  const who = user ?? users.get(connection);
  return who && who !== '?' ? `${who} (connection ${connection})` : `connection ${connection}`;
};

/** The holders the victim waited for: in a deadlock, the far end of the victim's own edges (`A waits for B on …`). */
function deadlockCulprits(victim: string, edges: string | undefined): string[] {
  const out: string[] = [];
  for (const m of (edges ?? '').matchAll(/(\d+) waits for (\d+)/g)) if (m[1] === victim && !out.includes(m[2]!)) out.push(m[2]!);
  return out;
}

export function digestAlert(a: FiredAlert): AlertDigest {
  const x = a.last_example;
  const base = {
    alertname: a.alertname, severity: a.severity, events: a.events,
    scope: a.labels.infobase ?? a.labels.database ?? '', lockSpace: a.labels.lock_space ?? x.lock_space ?? '',
  };
  if (x.waiter_pid !== undefined) {
    // PostgreSQL: the waiting backend and the holders' pids, each with its 1C user when the journal named it.
    const oneC = x.waiter_1c_user && x.waiter_1c_user !== '?' ? `, 1C user ${x.waiter_1c_user}` : '';
    const holders = x.holder_pids && x.holder_pids !== '?' ? `pid ${x.holder_pids.split(',').join(', pid ')}` : '';
    const holderUsers = x.holder_1c_users && !/^[?, ]*$/.test(x.holder_1c_users) ? ` (1C ${x.holder_1c_users})` : '';
    return { ...base, lockSpace: x.relation && x.relation !== '?' ? x.relation : '', victim: `pid ${x.waiter_pid} (${x.user ?? '?'}${oneC})`, culprit: holders ? `${holders}${holderUsers}` : '' };
  }
  if (x.victim_connection !== undefined) {
    const users = usersByConnection(`${x.culprits ?? ''} ${x.holders ?? ''}`);
    const culprits = x.edges !== undefined
      ? deadlockCulprits(x.victim_connection, x.edges)
      : (x.culprit_connections ?? '').split(',').map((c) => c.trim()).filter(Boolean);
    return {
      ...base,
      victim: oneCParty(x.victim_connection, users, x.victim_user),
      culprit: culprits.map((c) => oneCParty(c, users)).join(', '),
    };
  }
  if (x.connection !== undefined) {
    // Lock-wait rate: the latest waiting connection and those it waited for.
    const waitedFor = (x.wait_connections ?? '').split(',').map((c) => c.trim()).filter(Boolean);
    return { ...base, victim: oneCParty(x.connection, new Map(), x.user), culprit: waitedFor.map((c) => `connection ${c}`).join(', ') };
  }
  return { ...base, victim: '', culprit: '' };
}
