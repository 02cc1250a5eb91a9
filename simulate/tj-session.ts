// One simulated user connection to an infobase on one rphost: the identity properties every server event of that
// connection carries (docs/tj-format.md §3 "Identity / context properties").
import type { Prng } from './prng.js';
import type { TjProperty } from './tj-writer.js';
import { APPLICATIONS, COMPUTERS, USERS } from './tj-vocabulary.js';

export interface SimProcess {
  /** Executable name as the OS reports it: the folder prefix (`rphost_<pid>`). */
  name: string;
  pid: number;
}

export interface SimSession {
  index: number;
  process: SimProcess;
  infobase: string;
  connectId: number;
  clientId: number;
  sessionId: number;
  osThread: number;
  /** PostgreSQL backend pid of the session's DB connection: joins TJ with the PG log (`%p`). */
  dbpid: number;
  app: string;
  user: string;
  /** connectIDs of the other sessions in the same infobase: whom a lock wait can name (§5.4: per infobase). */
  peers: number[];
  /** `process` … `Usr`, in the order real rphost lines show them. */
  identity: TjProperty[];
  nextCallId: number;
}

export interface SessionPlan {
  processes: SimProcess[];
  sessionsPerProcess: number;
  infobases: readonly string[];
}

/** Builds all sessions; numbering per infobase (connectID, SessionID) and per process (clientID), as the platform does. */
export function createSessions(rng: Prng, plan: SessionPlan): SimSession[] {
  const sessions: SimSession[] = [];
  const nextConnect = new Map(plan.infobases.map((ib) => [ib, rng.int(100, 5000)]));
  const nextSeance = new Map(plan.infobases.map((ib) => [ib, rng.int(1, 900)]));
  for (const process of plan.processes) {
    let clientId = rng.int(1, 3000);
    for (let i = 0; i < plan.sessionsPerProcess; i++) {
      const infobase = plan.infobases[sessions.length % plan.infobases.length] as string;
      const connectId = (nextConnect.get(infobase) ?? 0) + rng.int(1, 7);
      nextConnect.set(infobase, connectId);
      const sessionId = (nextSeance.get(infobase) ?? 0) + rng.int(1, 3);
      nextSeance.set(infobase, sessionId);
      clientId += rng.int(1, 5);
      const app = rng.pick(APPLICATIONS);
      const session: SimSession = {
        index: sessions.length,
        process,
        infobase,
        connectId,
        clientId,
        sessionId,
        osThread: rng.int(1000, 60000),
        dbpid: rng.int(2000, 400000),
        app,
        user: app === 'BackgroundJob' ? 'DefUser' : rng.pick(USERS),
        peers: [],
        identity: [],
        nextCallId: rng.int(1, 90000),
      };
      session.identity = [
        ['process', process.name],
        ['p:processName', infobase],
        ['OSThread', String(session.osThread)],
        ['t:clientID', String(clientId)],
        ['t:applicationName', app],
        ['t:computerName', app === 'BackgroundJob' ? 'app-1c-01' : rng.pick(COMPUTERS)],
        ['t:connectID', String(connectId)],
        ['SessionID', String(sessionId)],
        ['Usr', session.user],
      ];
      sessions.push(session);
    }
  }
  for (const s of sessions) {
    s.peers = sessions.filter((o) => o.infobase === s.infobase && o !== s).map((o) => o.connectId);
    // A lone session still needs someone to wait for: a connection of another process or a console.
    if (s.peers.length === 0) s.peers = [s.connectId + 1];
  }
  return sessions;
}
