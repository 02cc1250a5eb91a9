// Which tj_events column a TJ property name fills, and by which rule: what the row encoder (tj-column-writer.ts)
// keeps beside each property name the scanner interns (parsers/tj/property-names.ts).
//
// Why here and not in parsers/tj/: a property's name and where its value is are TJ syntax, and the parser finds them;
// that `t:connectID` becomes a UInt64 column and an id of 21 digits stays text in `props` is the layout of one table.
// These rules are tj-event-to-row.ts's COLUMN_OF on bytes, and sit beside it so the two are changed together.
import { ID_COLUMNS, NULLABLE_INT_COLUMNS, STRING_COLUMNS, TJ_EVENTS } from '../../../schemas/tj-row.js';

/** How a property's value fills its column (tj-event-to-row.ts's COLUMN_OF, rule by rule). */
export const Rule = {
  /** No column: the value goes to `props`. */
  props: 0,
  string: 1,
  /** Unsigned 64-bit id; '' leaves 0, anything else not a UInt64 goes to props. */
  id: 2,
  /** Signed integer of at most 18 characters or null; '' leaves null. */
  nullableInt: 3,
  /** Unsigned of at most 9 digits; '' leaves 0. */
  dbpid: 4,
  /** Unsigned of at most 9 digits or null; '' leaves null. */
  trans: 5,
  regions: 6,
  waitConnections: 7,
} as const;
export type Rule = (typeof Rule)[keyof typeof Rule];

export interface ColumnRule {
  rule: Rule;
  /** The column it fills (index in TJ_EVENTS), -1 for props. */
  column: number;
}

const RULES = new Map<string, ColumnRule>();
for (const [name, column] of Object.entries(STRING_COLUMNS)) RULES.set(name, { rule: Rule.string, column: TJ_EVENTS.indexOf(column) });
for (const [name, column] of Object.entries(ID_COLUMNS)) RULES.set(name, { rule: Rule.id, column: TJ_EVENTS.indexOf(column) });
for (const [name, column] of Object.entries(NULLABLE_INT_COLUMNS)) RULES.set(name, { rule: Rule.nullableInt, column: TJ_EVENTS.indexOf(column) });
RULES.set('dbpid', { rule: Rule.dbpid, column: TJ_EVENTS.indexOf('dbpid') });
RULES.set('Trans', { rule: Rule.trans, column: TJ_EVENTS.indexOf('trans') });
RULES.set('Regions', { rule: Rule.regions, column: TJ_EVENTS.indexOf('regions') });
RULES.set('WaitConnections', { rule: Rule.waitConnections, column: TJ_EVENTS.indexOf('wait_connections') });

const TO_PROPS: ColumnRule = { rule: Rule.props, column: -1 };

/** The rule of a property name (what the scanner keeps as the name's meaning). */
export function columnRule(name: string): ColumnRule {
  return RULES.get(name) ?? TO_PROPS;
}
